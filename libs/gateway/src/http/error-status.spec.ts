import { HttpException, ServiceUnavailableException } from '@nestjs/common';
import { Unauthenticated } from '@ledger/auth';
import {
  AmountAboveAvailable,
  CardAlreadyExists,
  CardIsClosed,
  CardNotFound,
  CardStateNotAllowed,
  Conflict,
  EventSubscriptionAlreadyExists,
  InvalidInput,
  NotFound,
  TransactionNotFound,
  TransactionStateConflict,
  UnknownWebhookEventType,
} from '@ledger/domain';
import { ReadModelBehind } from '@ledger/runtime';
import { IdempotencyKeyInProgress, IdempotencyKeyReused } from '../idempotency/idempotency-keys';
import { RateLimited } from '../rate-limit/rate-limit.guard';
import { IdempotentReplay, RequestInvalid, UnsupportedMediaType } from './errors';
import { AuthorizationDeclined } from '../simulations/simulation-errors';
import { mapError } from './error-status';

/**
 * Retry advice per error class. The Lithic SDK retries every 408, 409, 429 and 5xx unless
 * `X-Should-Retry` says otherwise, and waits `Retry-After` first: an answer that a retry cannot change
 * must say `false`, and only 429 and 503 may carry Retry-After.
 */
const headersOf = (error: unknown) => {
  const { status, retry } = mapError(error);
  return { status, headers: retry };
};

const final: [string, unknown, number][] = [
  ['a closed card changed (409)', new CardIsClosed('c-1'), 409],
  ['a transaction in the wrong state (409)', new TransactionStateConflict('t-1', 'SETTLING', 'a void', 'a PENDING authorization'), 409],
  ['a card created twice (409)', new CardAlreadyExists('c-2'), 409],
  ['a subscription created twice (409)', new EventSubscriptionAlreadyExists('s-1'), 409],
  ['any other conflict (409)', new Conflict('x'), 409],
  ['an unknown card (404)', new CardNotFound('c-3'), 404],
  ['an unknown transaction (404)', new TransactionNotFound('t-2'), 404],
  ['any other not-found (404)', new NotFound('x'), 404],
  ['a void above what is pending (400)', new AmountAboveAvailable('still pending', 10, 5), 400],
  ['a state not allowed (400)', new CardStateNotAllowed('PENDING_FULFILLMENT', ['OPEN', 'PAUSED']), 400],
  ['an unknown webhook event type (400)', new UnknownWebhookEventType('card.exploded'), 400],
  ['any other invalid input (400)', new InvalidInput('x'), 400],
  ['an invalid request (400)', new RequestInvalid('amount must be an integer'), 400],
  ['a declined authorization (422)', new AuthorizationDeclined('CARD_CLOSED', 't-4'), 422],
  ['an Idempotency-Key used for another request (422)', new IdempotencyKeyReused(), 422],
  ['no or an unknown api-key (401)', new Unauthenticated('Could not find API key'), 401],
  ['malformed JSON (400)', new RequestInvalid('Request body is not valid JSON'), 400],
  ['a body too large (413)', new HttpException('Request body is too large', 413), 413],
  ['a body not sent as UTF-8 JSON (415)', new UnsupportedMediaType('Request body must be UTF-8 JSON'), 415],
];

describe('retry advice', () => {
  it.each(final)('%s: X-Should-Retry false, no Retry-After', (_what, error, status) => {
    expect(headersOf(error)).toEqual({ status, headers: { 'x-should-retry': 'false' } });
  });

  it('is false for every 4xx Nest answers by status (unknown route, method), except 408 and 429', () => {
    for (let status = 400; status < 500; status++) {
      const expected = status === 408 || status === 429 ? {} : { 'x-should-retry': 'false' };
      expect(headersOf(new HttpException('x', status))).toEqual({ status, headers: expected });
    }
  });

  it('says retry, after the window, to a rate-limited client (429)', () => {
    expect(headersOf(new RateLimited('Rate limited', 7))).toEqual({ status: 429, headers: { 'x-should-retry': 'true', 'retry-after': '7' } });
  });

  it('says retry to an Idempotency-Key still in progress (409), without Retry-After', () => {
    expect(headersOf(new IdempotencyKeyInProgress())).toEqual({ status: 409, headers: { 'x-should-retry': 'true' } });
  });

  it('gives an unavailable service (503) Retry-After', () => {
    expect(headersOf(new ServiceUnavailableException('No card-service is running'))).toEqual({ status: 503, headers: { 'retry-after': '1' } });
  });

  it('tells a write whose read model is behind (503) to read later, not to repeat the write', () => {
    expect(headersOf(new ReadModelBehind({ commit: 5n, prepare: 5n }, 10))).toEqual({ status: 503, headers: { 'x-should-retry': 'false', 'retry-after': '1' } });
  });

  it('gives a fault of ours (500) no advice', () => {
    expect(headersOf(new TypeError('cannot read x of undefined'))).toEqual({ status: 500, headers: {} });
  });

  it('makes every replayed error final (the key answers the same until it expires), and says nothing on a replayed success', () => {
    for (const status of [400, 409, 422, 500, 503]) expect(headersOf(new IdempotentReplay(status, '{}'))).toEqual({ status, headers: { 'x-should-retry': 'false' } });
    for (const status of [200, 201, 204]) expect(headersOf(new IdempotentReplay(status, '{}'))).toEqual({ status, headers: {} });
  });

  it('sends Retry-After with 429 and 503 only, and with every 503', () => {
    const all = [...final.map(([, error]) => error), new RateLimited('x', 1), new IdempotencyKeyInProgress(), new ServiceUnavailableException('x'), new TypeError('x')];
    for (let status = 400; status < 600; status++) all.push(new HttpException('x', status));
    for (const error of all) {
      const { status, headers } = headersOf(error);
      const retryAfter = 'retry-after' in headers;
      expect({ status, retryAfter }).toEqual({ status, retryAfter: status === 503 || (status === 429 && retryAfter) });
    }
  });
});
