import { applyDecorators, Controller, Delete, Get, HttpCode, Patch, Post, Put, Type, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard } from '@ledger/auth';
import { ErrorBody } from '@ledger/contracts';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { DeclaredInputGuard } from './declared-input.guard';
import { IdempotencyGuard, takesIdempotencyKey } from './idempotency.guard';
import { API_KEY_SCHEME } from './openapi';
import { ReadsAfterWritesGuard } from './reads-after-writes.guard';
import { SandboxOnlyGuard } from './sandbox-only.guard';

const ERROR_MEANINGS: Record<number, string> = {
  400: 'The request is invalid (unknown field, wrong type or format, malformed JSON); the message names the field',
  401: 'No api-key, or an unknown one',
  404: 'No such resource for the calling program',
  409: 'The request conflicts with the current state (e.g. a CLOSED card, a transaction that is no longer pending)',
  422: 'The simulated authorization was declined; the message is the decline reason and token the transaction',
  503: 'The write is recorded but the read model has not caught up in time; retry the read',
};

/** The error answers a route can give, each with the spec's error body (section 7). */
function ApiErrors(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(...statuses.map((status) => ApiResponse({ status, description: ERROR_MEANINGS[status], type: ErrorBody })));
}

/**
 * A controller of the program API: reached with an api-key (documented as such), grouped under
 * `tag` in the OpenAPI document, and answering 400 and 401 with the error body on every route, plus
 * `errors`. Its guards, in order: the rate limiter (429); for a sandbox-only controller, a 404
 * outside sandbox mode before the api-key is looked at; the api-key (401); the declared-input check
 * (400); then a read waits for its program's writes. Guards of the controllers rather than global
 * ones, so the probes (never limited, no api-key) pass no Nest guard at all.
 */
export function ProgramApi(tag: string, path: string, options: { errors?: number[]; sandboxOnly?: boolean } = {}): ClassDecorator {
  return applyDecorators(
    ApiTags(tag),
    ApiSecurity(API_KEY_SCHEME),
    ApiErrors(400, 401, ...(options.errors ?? [])),
    Controller(path),
    UseGuards(RateLimitGuard, ...(options.sandboxOnly ? [SandboxOnlyGuard] : []), ApiKeyGuard, DeclaredInputGuard, ReadsAfterWritesGuard),
  );
}

const METHODS = { GET: Get, POST: Post, PUT: Put, PATCH: Patch, DELETE: Delete };

export interface RouteDocument {
  summary: string;
  /** The OpenAPI model of the 200 answer. */
  answers: Type<unknown>;
  /** What a 200 means, where the summary does not say it. */
  answerDescription?: string;
  /** The error statuses this route may answer beyond its controller's. */
  errors?: number[];
}

/**
 * One route and its OpenAPI operation; `path` is below the controller's ('' for the controller's
 * own). Every route answers 200 on success, a POST too: Lithic's API, which ours follows, never
 * answers 201. A POST or PATCH takes an `Idempotency-Key`; the guard that honours it is put on those
 * routes alone, after the controller's (so after the api-key's).
 */
export function Route(method: keyof typeof METHODS, path: string | string[], document: RouteDocument): MethodDecorator {
  return applyDecorators(
    METHODS[method](path),
    ...(method === 'POST' ? [HttpCode(200)] : []),
    ...(takesIdempotencyKey(method) ? [UseGuards(IdempotencyGuard)] : []),
    ApiOperation({ summary: document.summary }),
    ApiOkResponse({ type: document.answers, ...(document.answerDescription ? { description: document.answerDescription } : {}) }),
    ApiErrors(...(document.errors ?? [])),
  );
}
