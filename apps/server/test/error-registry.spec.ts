import { HttpException, ServiceUnavailableException } from '@nestjs/common';
import * as auth from '@ledger/auth';
import * as cardService from '@ledger/card-service';
import * as contracts from '@ledger/contracts';
import * as domain from '@ledger/domain';
import {
  AmountAboveAvailable,
  ApiKeyNotFound,
  AuthRuleAlreadyExists,
  AuthRuleBacktestNotFound,
  AuthRuleBacktestNotSupported,
  AuthRuleBacktestWindowInvalid,
  TokenizationNotFound,
  TokenizationTransitionRefused,
  CardNotProvisionable,
  TokenizationNotOfCard,
  AuthRuleHasNoDraft,
  AuthRuleNotFound,
  AuthRuleParametersInvalid,
  AuthRuleScopeInvalid,
  AuthRuleStateNotAllowed,
  AuthorizationStreamNotEnrolled,
  CardAlreadyExists,
  CardIsClosed,
  CardNotFound,
  CardNumberTaken,
  CardStateNotAllowed,
  CardNotShipped,
  CardNotActivated,
  CardMustBeOpen,
  CardTypeNotAllowed,
  NoPlasticToShip,
  TooManyPlastics,
  ShippingRequired,
  ShippingNotApplicable,
  ReplacedCardNotFound,
  ReplacementTypeMismatch,
  UnknownCardProgram,
  CardProgramNotFound,
  ClockCannotMoveBackwards,
  Conflict,
  DomainError,
  EndpointUrlInvalid,
  EndpointUrlNotAllowed,
  EventSubscriptionAlreadyExists,
  EventSubscriptionNotFound,
  ExpiryInThePast,
  FundingSourceNotFound,
  FinancialAccountNotFound,
  StatementNotFound,
  InvalidInput,
  LocalAmountOutOfRange,
  ExpiryAmountNotPending,
  NotFound,
  ProgramAlreadyExists,
  ProgramNotFound,
  TransactionNotFound,
  TransactionEventTokenWithdrawn,
  TransactionStateConflict,
  UnknownWebhookEventType,
} from '@ledger/domain';
import * as eventStore from '@ledger/event-store';
import { WrongExpectedVersionError } from '@ledger/event-store';
import * as runtime from '@ledger/runtime';
import { ReadModelBehind } from '@ledger/runtime';
import * as transactionService from '@ledger/transaction-service';
import { NoCardWithThisNumber } from '@ledger/transaction-service';
import * as webhooks from '@ledger/webhooks';
import { NoExampleEvent } from '@ledger/webhooks';
import { CROSSING_ERRORS, ErrorClass, ErrorRegistry, rehydrateError, RemoteError, serializeError, WireError } from '@ledger/host';

/**
 * The codes errors cross processes under (libs/host/src/distributed/error-registry.ts): unique,
 * each registered class back as itself, unknown codes as their kind's base, and no exported domain
 * error left without a code. (command-transport.spec.ts checks the HTTP answers the errors give.)
 */

/** Through the wire as it travels: serialized, JSON text, parsed, rebuilt. */
const acrossTheWire = (error: unknown, registry?: ErrorRegistry) => rehydrateError(JSON.parse(JSON.stringify(serializeError(error, registry))) as WireError, 'card-service', registry);

/** One instance of every registered class, made as its thrower makes it. */
const SAMPLES: Error[] = [
  new InvalidInput('pan is not a valid card number', 'pan'),
  new NotFound('nothing here'),
  new Conflict('already done', 'state'),
  new CardNotFound('c-1'),
  new CardAlreadyExists('c-2'),
  new CardIsClosed('c-3'),
  new CardStateNotAllowed('LOST', ['OPEN', 'PAUSED']),
  new ExpiryInThePast('01', '2020'),
  new CardNumberTaken(),
  new CardNotShipped('c-4'),
  new CardNotActivated('c-5'),
  new CardMustBeOpen('c-6', 'convert_physical'),
  new CardTypeNotAllowed('reissue', 'VIRTUAL', ['PHYSICAL']),
  new NoPlasticToShip('c-7'),
  new TooManyPlastics('c-8', 8),
  new ShippingRequired('a PHYSICAL card'),
  new ShippingNotApplicable('VIRTUAL'),
  new ReplacedCardNotFound('c-9'),
  new ReplacementTypeMismatch('PHYSICAL', 'VIRTUAL'),
  new UnknownCardProgram('cp-1'),
  new CardProgramNotFound('cp-2'),
  new TransactionNotFound('t-1'),
  new TransactionStateConflict('t-2', 'SETTLING', 'a void', 'a PENDING authorization'),
  new TransactionEventTokenWithdrawn('t-2', 'e-9'),
  new AmountAboveAvailable('left to clear', 900, 700),
  new LocalAmountOutOfRange(500, 10n ** 20n),
  new ExpiryAmountNotPending(100, 600),
  new ProgramNotFound('p-1'),
  new ProgramAlreadyExists('p-2'),
  new ApiKeyNotFound('k-1'),
  new FundingSourceNotFound('f-1'),
  new FinancialAccountNotFound('fa-1'),
  new StatementNotFound('st-1'),
  new AuthorizationStreamNotEnrolled(),
  new ClockCannotMoveBackwards('2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z'),
  new EventSubscriptionNotFound('s-1'),
  new EventSubscriptionAlreadyExists('s-2'),
  new UnknownWebhookEventType('card.exploded'),
  new AuthRuleNotFound('r-1'),
  new AuthRuleAlreadyExists('r-2'),
  new AuthRuleParametersInvalid('parameters.action must be DECLINE or CHALLENGE', 'parameters.action'),
  new AuthRuleScopeInvalid('card_tokens must name at least one token', 'card_tokens'),
  new AuthRuleHasNoDraft('r-3'),
  new AuthRuleStateNotAllowed('ACTIVE'),
  new AuthRuleBacktestNotFound('b-1'),
  new AuthRuleBacktestNotSupported('version 2 is an ACCOUNT velocity limit'),
  new AuthRuleBacktestWindowInvalid('start (2026-01-02T00:00:00.000Z) must be before end (2026-01-01T00:00:00.000Z)', 'start'),
  new domain.ThreeDSAuthenticationNotFound('t-1'),
  new domain.ThreeDSChallengeNotPending('t-2', 'SUCCESS'),
  new TokenizationNotFound('t-1'),
  new TokenizationTransitionRefused('t-2', 'paused', 'DEACTIVATED'),
  new CardNotProvisionable('c-1', 'it is a SINGLE_USE card'),
  new TokenizationNotOfCard('t-3', 'c-2'),
  new domain.DisputeNotFound('d-1'),
  new domain.DisputeEvidenceNotFound('e-1'),
  new domain.TransactionAlreadyDisputed('t-1'),
  new domain.TransactionNotDisputable('t-1', 'it is PENDING, not cleared'),
  new domain.DisputeAmountOutOfRange(6000, 5000),
  new domain.DisputeStateConflict('d-1', 'CASE_WON', 'an update'),
  new domain.DisputeResolutionInvalid('a closed case needs a closed reason'),
  new domain.DisputeEvidenceStateConflict('e-1', 'UPLOADED', 'an upload'),
  new domain.DisputeEvidenceTooLarge(70000, 65536),
  new domain.DisputeEvidenceEmpty(),
  new EndpointUrlInvalid('must be an http or https URL'),
  new EndpointUrlNotAllowed(),
  new contracts.WebhookMessageNotFound('m-1'),
  new NoCardWithThisNumber(),
  new NoExampleEvent('card.created'),
  new WrongExpectedVersionError('card-c-1', 4, 5),
  new ReadModelBehind({ commit: 7n, prepare: 7n }, 10),
  new auth.Unauthenticated(auth.UNKNOWN_API_KEY_MESSAGE),
  new HttpException({ message: 'No card-service is running to take this request; retry later', statusCode: 503 }, 503),
];

/** Own enumerable fields, as a handler or the HTTP edge reads them (the name is compared on its own: some classes set it as a field). */
const fieldsOf = (error: Error): Record<string, unknown> => {
  const { name: _name, ...fields } = { ...error } as Record<string, unknown>;
  return fields;
};

describe('the error registry', () => {
  const entries = CROSSING_ERRORS.entries();

  it('gives every class one code and every code one class', () => {
    const codes = entries.map(([code]) => code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(new Set(entries.map(([, type]) => type)).size).toBe(entries.length);
    for (const code of codes) expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
    expect(() => new ErrorRegistry([['not_found', NotFound], ['not_found', CardNotFound]])).toThrow(/not_found is registered twice/);
    expect(() => new ErrorRegistry([['not_found', NotFound], ['missing', NotFound]])).toThrow(/registered twice/);
  });

  it('registers each of our classes under the code it declares itself', () => {
    for (const [code, type] of entries) {
      if (type === HttpException) continue; // Nest's: the registry gives it its code
      expect([code, Object.hasOwn(type, 'code') ? (type as unknown as { code: string }).code : 'no code of its own']).toEqual([code, code]);
    }
  });

  it('has a sample of every registered class (the round trip below covers them all)', () => {
    const sampled = new Set(SAMPLES.map((sample) => Object.getPrototypeOf(sample).constructor));
    expect(entries.filter(([, type]) => !sampled.has(type)).map(([code]) => code)).toEqual([]);
  });

  it.each(SAMPLES.map((sample) => [CROSSING_ERRORS.codeOf(sample), sample] as const))('%s comes back as the same class with the same fields', (code, original) => {
    const wire = serializeError(original);
    expect(wire.code).toBe(code);
    const back = acrossTheWire(original);
    expect(Object.getPrototypeOf(back)).toBe(Object.getPrototypeOf(original));
    expect(back).toBeInstanceOf(Object.getPrototypeOf(original).constructor);
    expect(back.name).toBe(original.name);
    expect(back.message).toBe(original.message);
    if (original instanceof HttpException) {
      expect((back as HttpException).getStatus()).toBe(original.getStatus());
      expect((back as HttpException).getResponse()).toEqual(original.getResponse());
    } else {
      expect(fieldsOf(back)).toEqual(fieldsOf(original));
    }
  });

  it('sends a class nobody registered under its nearest registered ancestor: a domain error of an app as its kind, a Nest exception as HttpException', () => {
    class StillOnItsWay extends Conflict {
      constructor(readonly cardToken: string) {
        super('a conflict only the sender knows', 'state');
      }
    }
    expect(serializeError(new StillOnItsWay('c-9')).code).toBe('conflict');
    const back = acrossTheWire(new StillOnItsWay('c-9'));
    expect(Object.getPrototypeOf(back)).toBe(Conflict.prototype);
    expect(back.name).toBe('StillOnItsWay');
    expect((back as Conflict & { cardToken: string }).cardToken).toBe('c-9');

    expect(serializeError(new ServiceUnavailableException('later')).code).toBe('http_exception');
    expect((acrossTheWire(new ServiceUnavailableException('later')) as HttpException).getStatus()).toBe(503);
  });

  it("rebuilds a code it does not know as its kind's base class, and anything else as a fault", () => {
    // A sender with a class this receiver has no entry for: a registry without CardNotFound.
    const older = new ErrorRegistry(entries.filter(([, type]) => type !== CardNotFound));
    const wire = serializeError(new CardNotFound('c-1'));
    expect(wire.code).toBe('card_not_found');
    const back = rehydrateError(JSON.parse(JSON.stringify(wire)) as WireError, 'card-service', older);
    expect(Object.getPrototypeOf(back)).toBe(NotFound.prototype);
    expect([back.name, back.message, (back as NotFound).field, (back as CardNotFound).cardToken]).toEqual(['CardNotFound', 'Card c-1 not found', 'card_token', 'c-1']);

    const unknown: WireError = { code: 'meteor_strike', name: 'MeteorStrike', message: 'gone', fields: {} };
    expect(rehydrateError(unknown, 'card-service')).toBeInstanceOf(RemoteError);
    expect(serializeError(new TypeError('x')).code).toBeUndefined();
    expect(acrossTheWire(new TypeError('x'))).toBeInstanceOf(RemoteError);
    expect(acrossTheWire('not even an Error')).toBeInstanceOf(RemoteError);
  });
});

/**
 * The libraries whose code runs in a handler another process calls: a domain error they export is
 * one a caller may get back. (The gateway's own errors never cross: nothing calls the gateway.)
 */
const CROSSING_LIBRARIES: Record<string, Record<string, unknown>> = { domain, contracts, eventStore, runtime, auth, cardService, transactionService, webhooks };

describe('exported errors', () => {
  const exported = Object.entries(CROSSING_LIBRARIES).flatMap(([library, namespace]) =>
    Object.entries(namespace)
      .filter((entry): entry is [string, ErrorClass] => typeof entry[1] === 'function' && (entry[1] as { prototype?: unknown }).prototype instanceof Error)
      .map(([name, type]) => ({ where: `${library}.${name}`, type })),
  );

  it('are found (the scan is not empty)', () => {
    expect(exported.filter(({ type }) => type.prototype instanceof DomainError).length).toBeGreaterThan(20);
  });

  it('each have a code of their own, registered, when they are domain errors or declare a code', () => {
    const unregistered = exported
      .filter(({ type }) => type.prototype instanceof DomainError || Object.hasOwn(type, 'code'))
      .filter(({ type }) => !Object.hasOwn(type, 'code') || CROSSING_ERRORS.classOf((type as unknown as { code: string }).code) !== type)
      .map(({ where }) => where);
    expect(unregistered).toEqual([]);
  });
});
