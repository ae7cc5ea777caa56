import { ServiceUnavailableException } from '@nestjs/common';
import { CardNotFound, ClockCannotMoveBackwards, Conflict, DomainError, TransactionNotFound, TransactionStateConflict, UnknownWebhookEventType } from '@ledger/domain';
import { ReadModelBehind } from '@ledger/runtime';
import { errorOutcome } from '@ledger/gateway';
import { NoCardWithThisNumber } from '@ledger/transaction-service';
import { MessageSeal, MessageUnsealable } from '@ledger/card-vault';
import {
  AuthorizeCardSpendCommand,
  CreateCardCommand,
  CreateEventSubscriptionCommand,
  CreateProgramCommand,
  MESSAGE_ROUTES,
  MessageClass,
  ResendWebhookMessageCommand,
  SimulateAuthorizationCommand,
  SimulateSettlementCommand,
} from '@ledger/contracts';
import { CommandExecutor, fromWire, openMessage, rehydrateError, RemoteError, routesByName, sealMessage, serializeError, toWire } from '@ledger/host';

/**
 * The pieces of the distributed transport that need no network: who handles which command, values
 * that survive the wire, and errors that come back as the same classes with the same HTTP outcome.
 * (apps/server/test/distributed.spec.ts runs the real processes over NATS.)
 */

const routeOf = (type: MessageClass) => MESSAGE_ROUTES.find((route) => route.type === type);

describe('message routes', () => {
  it('send each command to the role whose module handles it (message-routes.spec.ts checks every one)', () => {
    const roleOf = (type: MessageClass) => routeOf(type)?.role;
    expect(roleOf(CreateCardCommand)).toBe('card-service');
    expect(roleOf(AuthorizeCardSpendCommand)).toBe('card-service');
    expect(roleOf(CreateProgramCommand)).toBe('card-service');
    expect(roleOf(SimulateAuthorizationCommand)).toBe('transaction-service');
    expect(roleOf(SimulateSettlementCommand)).toBe('transaction-service');
    expect(roleOf(CreateEventSubscriptionCommand)).toBe('webhooks');
    expect(roleOf(ResendWebhookMessageCommand)).toBe('webhooks');
  });

  it('list no query: every query the gateway runs is its own', () => {
    expect(MESSAGE_ROUTES.filter((route) => route.kind === 'query')).toEqual([]);
  });

  it('are found by the name a message travels under, which is not its class name', () => {
    const route = routeOf(SimulateAuthorizationCommand)!;
    expect(route.name).toBe('transaction.simulate-authorization');
    expect(routesByName().get(route.name)).toBe(route);
    expect(routesByName().get('SimulateAuthorizationCommand')).toBeUndefined();
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

describe('sealed messages', () => {
  const seal = MessageSeal.derivedFrom(Buffer.alloc(32, 3), 'command-transport');
  const command = new SimulateAuthorizationCommand({ programToken: 'p-1' } as never, {
    pan: '4242424242424242',
    amount: 100,
    merchant: { descriptor: 'Shop' } as never,
    merchantCurrency: 'USD',
    merchantAmount: 100,
    presented: { cvv: '321', pin: '97531', expMonth: '01', expYear: '2030' },
  }, '6a0c1f4e-2b7d-4c1a-9e3f-0d5b8a7c6e21');
  const message = { name: routeOf(SimulateAuthorizationCommand)!.name, payload: toWire(command) };

  it('carry the whole command with nothing in clear, and open to the same values', () => {
    const sealed = sealMessage(seal, message, 'command ledger.commands.transaction-service');
    const text = JSON.stringify(sealed);
    for (const secret of ['4242424242424242', '321', '97531', message.name, 'Shop']) expect(text).not.toContain(secret);
    const opened = openMessage<typeof message>(seal, JSON.parse(text), 'command ledger.commands.transaction-service');
    expect(fromWire(opened.payload)).toEqual(fromWire(toWire(command)));
  });

  it('are opened, run and answered sealed by the listening side; a command sealed under another key is refused unrun', async () => {
    const subject = 'ledger.commands.transaction-service';
    const ran: unknown[] = [];
    const commands = { execute: async (instance: unknown) => (ran.push(instance), { transactionToken: 't-9', result: 'APPROVED', position: null }) };
    const options = { seal, routes: routesByName(), localRoles: ['transaction-service'] };
    const executor = new CommandExecutor(options as never, commands as never, {} as never);

    const answer = await executor.execute(JSON.parse(JSON.stringify(sealMessage(seal, message, `command ${subject}`))), subject);
    expect(JSON.stringify(answer)).not.toContain('t-9');
    expect(openMessage(seal, answer, `reply ${subject}`)).toEqual({ ok: true, result: { transactionToken: 't-9', result: 'APPROVED', position: null } });
    expect(ran).toHaveLength(1);
    expect(ran[0]).toBeInstanceOf(SimulateAuthorizationCommand);

    const foreign = sealMessage(MessageSeal.derivedFrom(Buffer.alloc(32, 4), 'command-transport'), message, `command ${subject}`);
    expect(await executor.execute(foreign, subject)).toEqual({ refused: expect.stringMatching(/another key.*CARD_DATA_KEY/) });
    expect(await executor.execute(message, subject)).toEqual({ refused: expect.stringMatching(/not a sealed message/) });
    expect(ran).toHaveLength(1);
  });

  it('do not open as a reply, for another role, under another key, or unsealed', () => {
    const sealed = sealMessage(seal, message, 'command ledger.commands.transaction-service');
    expect(() => openMessage(seal, sealed, 'reply ledger.commands.transaction-service')).toThrow(MessageUnsealable);
    expect(() => openMessage(seal, sealed, 'command ledger.commands.card-service')).toThrow(MessageUnsealable);
    expect(() => openMessage(MessageSeal.derivedFrom(Buffer.alloc(32, 4), 'command-transport'), sealed, 'command ledger.commands.transaction-service')).toThrow(/CARD_DATA_KEY/);
    expect(() => openMessage(seal, message, 'command ledger.commands.transaction-service')).toThrow(MessageUnsealable);
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
    ['the test clock refusing to move backwards', new ClockCannotMoveBackwards('2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z')],
    ["an app's own domain error", new NoCardWithThisNumber()],
    ['a domain error unknown to the receiver', new NotKnownOverThere()],
    ['an unavailable service', new ServiceUnavailableException('No card-service is running to take this request; retry later')],
    ['a read model behind', new ReadModelBehind({ commit: 5n, prepare: 5n }, 10)],
    ['a fault', new TypeError('cannot read x of undefined')],
  ];

  it.each(cases)('%s comes back with the same HTTP status and body', (_what, original) => {
    const request = { id: 'r-1' };
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
