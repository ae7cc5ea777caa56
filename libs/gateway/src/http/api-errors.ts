import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorBody } from '@ledger/contracts';

const ERROR_MEANINGS: Record<number, string> = {
  400: 'The request is invalid (unknown field, wrong type or format, malformed JSON); the message names the field',
  401: 'No api-key, or an unknown one',
  404: 'No such resource for the calling program',
  409: 'The request conflicts with the current state (e.g. a CLOSED card, a transaction that is no longer pending)',
  422: 'The simulated authorization was declined; the message is the decline reason and token the transaction',
  503: 'The write is recorded but the read model has not caught up in time; retry the read',
};

/** The error answers a route can give, each with the spec's error body (section 7). */
export function ApiErrors(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(...statuses.map((status) => ApiResponse({ status, description: ERROR_MEANINGS[status], type: ErrorBody })));
}
