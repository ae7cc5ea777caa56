import { ServiceUnavailableException } from '@nestjs/common';
import { CardNotFound, Conflict, DomainError, TransactionNotFound, TransactionStateConflict, UnknownWebhookEventType } from '@ledger/domain';
import { ReadModelBehind } from '@ledger/runtime';
import { errorOutcome } from '../../gateway/src/http/error-body.filter';
import { NoCardWithThisNumber } from '../../transaction-service/src/card-locator';
import { messageRoutes } from '../src/distributed/command-routes';
import { fromWire, rehydrateError, RemoteError, serializeError, toWire } from '../src/distributed/wire';
import { commandRoleModules } from '../src/ledger-app.module';

/**
 * The pieces of the distributed transport that need no network: who handles which command, values
 * that survive the wire, and errors that come back as the same classes with the same HTTP outcome.
 * (apps/server/test/distributed.spec.ts runs the real processes over NATS.)
 */

describe('message routes', () => {
  const routes = messageRoutes(commandRoleModules());

  it('sends each command to the role whose module handles it', () => {
    const roleOf = (name: string) => routes.get(name)?.role;
    expect(roleOf('CreateCardCommand')).toBe('card-service');
    expect(roleOf('AuthorizeCardSpendCommand')).toBe('card-service');
    expect(roleOf('CreateProgramCommand')).toBe('card-service');
    expect(roleOf('SimulateAuthorizationCommand')).toBe('transaction-service');
    expect(roleOf('SimulateSettlementCommand')).toBe('transaction-service');
    expect(roleOf('CreateEventSubscriptionCommand')).toBe('webhooks');
    expect(roleOf('ResendWebhookMessageCommand')).toBe('webhooks');
  });

  it('finds no query handler in a service module: every query the gateway runs is its own', () => {
    expect([...routes.values()].filter((route) => route.kind === 'query')).toEqual([]);
  });
});

describe('values on the wire', () => {
  it('keeps undefined members, dates and bigints', () => {
    const value = { memo: undefined, at: new Date('2026-01-02T03:04:05.000Z'), position: 12n, list: [undefined, null, 1], nested: { state: 'PAUSED' } };
    const back = fromWire(JSON.parse(JSON.stringify(toWire(value)))) as typeof value;
    expect(back).toEqual(value);
    expect(Object.keys(back)).toEqual(Object.keys(value));
    expect(back.at).toBeInstanceOf(Date);
    expect(typeof back.position).toBe('bigint');
  });
});

describe('errors on the wire', () => {
  class NotKnownOverThere extends Conflict {
    constructor() {
      super('a conflict whose class only the sender has', 'state');
    }
  }
  const cases: [string, Error][] = [
    ['a domain error', new CardNotFound('c-1')],
    ['a domain error with a token', new TransactionNotFound('t-1')],
    ['a conflict', new TransactionStateConflict('t-2', 'SETTLING', 'a void', 'a PENDING authorization')],
    ['an invalid input', new UnknownWebhookEventType('card.exploded')],
    ["an app's own domain error", new NoCardWithThisNumber()],
    ['a domain error unknown to the receiver', new NotKnownOverThere()],
    ['an unavailable service', new ServiceUnavailableException('No card-service is running to take this request; retry later')],
    ['a read model behind', new ReadModelBehind({ commit: 5n, prepare: 5n }, 10)],
    ['a fault', new TypeError('cannot read x of undefined')],
  ];

  it.each(cases)('%s comes back with the same HTTP status and body', (_what, original) => {
    const request = { requestId: 'r-1' } as never;
    const back = rehydrateError(JSON.parse(JSON.stringify(serializeError(original))), 'card-service');
    expect(errorOutcome(back, request)).toEqual(errorOutcome(original, request));
    expect(back.message).toBe(original.message);
    expect(back.name).toBe(original.name);
    if (original instanceof DomainError) {
      expect(back).toBeInstanceOf(DomainError);
      expect((back as DomainError).field).toBe(original.field);
    }
  });

  it('rebuilds the very class when this process knows it', () => {
    const back = rehydrateError(serializeError(new TransactionNotFound('t-3')), 'transaction-service');
    expect(back).toBeInstanceOf(TransactionNotFound);
    expect((back as TransactionNotFound).transactionToken).toBe('t-3');
    expect(back.stack).toContain('<transaction-service>');
    expect(rehydrateError(serializeError(new TypeError('x')), 'card-service')).toBeInstanceOf(RemoteError);
  });
});
