import { Logger } from '@nestjs/common';
import { CardVault } from '@ledger/card-vault';
import { AuthorizeCardSpendCommand, type PresentedCardDetails } from '@ledger/contracts';
import {
  CardNotFound,
  cardStreamId,
  programDecider,
  ProgramNotFound,
  programStreamId,
  transactionStreamId,
  type DeclineReason,
  type ProgramEvent,
  type TransactionEvent,
} from '@ledger/domain';
import { EgressGuard, EgressHttpClient, EgressPolicy } from '@ledger/egress';
import { chainEvents, WrongExpectedVersionError, type EventStore, type FaultPoints, type PipelineEnvironment } from '@ledger/event-store';
import { verifySignature } from '@ledger/messaging';
import type { ReadModelClient } from '@ledger/read-model';
import type { LedgerConfig, ProjectionWatcher } from '@ledger/runtime';
import { cardCreated, commandOrigin, ledgerHandlerSpecification, programCreated, programWithFundingSources } from '@ledger/runtime/test';
import { LocalReceiver, unusable } from '@ledger/test-support';
import { AuthorizationStreamClient } from '../authorization-stream/authorization-stream-client';
import { AuthorizeCardSpendHandler } from './authorize-card-spend.handler';
import { ProgramSpend } from './program-spend';

/**
 * Platform limits over a week or a month are tallied from the transactions read model once the
 * projections caught up; these programs have none, so ProgramSpend (the real one) reads nothing, and
 * a scenario that made it read would fail here instead of passing on made-up totals.
 */
const notRead = <T>(what: string) => unusable<T>(`ProgramSpend used ${what}`, 'these programs have no weekly or monthly limit to tally');
const programSpend = (store: EventStore) => new ProgramSpend(notRead<ReadModelClient>('the read model'), store, notRead<ProjectionWatcher>('the projection watcher'), notRead<LedgerConfig>('the config'));

const vault = new CardVault(Buffer.alloc(32, 7));
/** The program's authorization endpoint, a real HTTP receiver on loopback, answering by path. */
const endpoint = new LocalReceiver((request) => {
  if (request.path === '/partial') return { status: 200, body: { result: 'APPROVED', approved_amount: 600 } };
  if (request.path === '/no-funds') return { status: 200, body: { result: 'INSUFFICIENT_FUNDS' } };
  return { status: 200, body: { result: 'APPROVED' } };
});
const http = new EgressHttpClient(new EgressGuard(EgressPolicy.of(['127.0.0.1'])));
const streamClient = new AuthorizationStreamClient(http);

beforeAll(async () => {
  Logger.overrideLogger(false);
  await endpoint.start();
});
beforeEach(() => endpoint.clear());
afterAll(async () => {
  http.close();
  await endpoint.stop();
});

const PROGRAM = 'prog_acme';
const CARD = 'card_1';
const TRANSACTION = 'txn_1';
const CARD_STREAM = cardStreamId(CARD);
const TRANSACTION_STREAM = transactionStreamId(TRANSACTION);
const PROGRAM_STREAM = programStreamId(PROGRAM);
const PAN = '4242424242424242';
const origin = commandOrigin(PROGRAM);
const NOW = '2025-03-14T09:26:53.589Z';
const merchant = { acceptorId: 'acq_1', city: 'Berlin', country: 'DEU', descriptor: 'COFFEE', mcc: '5814', state: '' };
const CVV = vault.cvv(PAN, '03', '2028');

const enrolledAt = (path: string): ProgramEvent => ({ type: 'AuthorizationStreamEnrolled', data: { programToken: PROGRAM, url: endpoint.url(path), timeoutMs: 2000, secretSealed: vault.encrypt('whsec_acme') } });
const card = (fundingToken = 'fund_default') => cardCreated({ cardToken: CARD, programToken: PROGRAM, memo: 'Coffee', fundingToken, ...vault.protect(PAN), pinHash: vault.pinHash(CARD, '1234'), created: NOW });
const given = (...programEvents: ProgramEvent[]) => ({ [PROGRAM_STREAM]: [...programWithFundingSources({ programToken: PROGRAM, created: NOW }), ...programEvents], [CARD_STREAM]: [card()] });

const presentedRight: PresentedCardDetails = { cvv: CVV, expMonth: '03', expYear: '2028', pin: '1234' };
const authorize = (presented: PresentedCardDetails = presentedRight, extra: { partialApprovalCapable?: boolean; programToken?: string; cardToken?: string } = {}) =>
  new AuthorizeCardSpendCommand({ ...origin, programToken: extra.programToken ?? PROGRAM }, extra.cardToken ?? CARD, {
    transactionToken: TRANSACTION,
    eventToken: 'evt_authorization',
    authorizationCode: '123456',
    amount: 1000,
    merchant,
    merchantAmount: 900,
    merchantCurrency: 'EUR',
    presented,
    partialApprovalCapable: extra.partialApprovalCapable,
  });
/** What the card records and the transaction opens with: the same facts on both streams. */
const facts = (changes: { amount?: number; merchantAmount?: number; fundingToken?: string } = {}) => ({
  cardToken: CARD,
  programToken: PROGRAM,
  transactionToken: TRANSACTION,
  eventToken: 'evt_authorization',
  amount: 1000,
  merchant,
  merchantAmount: 900,
  merchantCurrency: 'EUR',
  authorizationCode: '123456',
  fundingToken: 'fund_default',
  at: NOW,
  ...changes,
});
const approved = (recorded = facts()) => ({
  [CARD_STREAM]: [{ type: 'CardAuthorizationApproved', data: recorded }],
  [TRANSACTION_STREAM]: [{ type: 'TransactionAuthorized', data: { ...recorded, result: 'APPROVED' } }],
});
const declined = (reason: DeclineReason, recorded = facts()) => ({
  [CARD_STREAM]: [{ type: 'CardAuthorizationDeclined', data: { ...recorded, reason } }],
  [TRANSACTION_STREAM]: [{ type: 'TransactionAuthorized', data: { ...recorded, result: reason } }],
});

/** Each decision passes the handler's 'folds-loaded' point once: how often the scenario's command was decided. */
let decisions = 0;
const countingDecisions: FaultPoints = {
  reached(point) {
    if (point === 'folds-loaded') decisions += 1;
  },
};

describe('AuthorizeCardSpendHandler', () => {
  const authorizations = ledgerHandlerSpecification({
    handler: (env) => {
      decisions = 0;
      return new AuthorizeCardSpendHandler(env, vault, programSpend(env.store), streamClient, countingDecisions);
    },
    now: new Date(NOW),
  });

  it("approves: the card's approval and the transaction it opens, with the same facts, in one commit", async () => {
    const { result, writes, recorded } = await authorizations
      .given(given())
      .when((handler) => handler.execute(authorize()))
      .then(approved());

    expect(result).toEqual({ result: 'APPROVED', facts: facts(), position: expect.stringMatching(/^\d+\/\d+$/) });
    // The program stream is in the write too, as a check of its version; it gets no event, so the
    // harness, which lists the streams each commit appended to, does not name it (see the race below).
    expect(writes).toEqual([[CARD_STREAM, TRANSACTION_STREAM]]);
    const [card, transaction] = recorded.map((event) => event.data as Record<string, unknown>);
    expect(transaction).toEqual({ ...card, result: 'APPROVED' });
    expect(JSON.stringify(recorded.map((event) => event.data))).not.toContain(CVV);
  });

  it.each<{ what: string; presented?: PresentedCardDetails; program?: ProgramEvent[]; fundingToken?: string; reason: DeclineReason }>([
    { what: 'a CVV that is not the card’s', presented: { ...presentedRight, cvv: CVV === '000' ? '001' : '000' }, reason: 'INVALID_CARD_DETAILS' },
    { what: 'an expiry that is not the card’s', presented: { ...presentedRight, expYear: '2029' }, reason: 'INVALID_CARD_DETAILS' },
    { what: 'a wrong PIN', presented: { ...presentedRight, pin: '4321' }, reason: 'INCORRECT_PIN' },
    { what: 'a funding source the program no longer has (taken as DELETED)', fundingToken: 'fund_gone', reason: 'BANK_CONNECTION_ERROR' },
    { what: 'a funding source the program disconnected', program: [{ type: 'FundingSourceChanged', data: { programToken: PROGRAM, fundingToken: 'fund_default', state: 'DISCONNECTED' } }], reason: 'BANK_CONNECTION_ERROR' },
    { what: 'a paused program', program: [{ type: 'ProgramSettingsChanged', data: { programToken: PROGRAM, state: 'PAUSED' } }], reason: 'INACTIVE_ACCOUNT' },
    { what: 'a merchant the program blocks', program: [{ type: 'ProgramSettingsChanged', data: { programToken: PROGRAM, blockedMerchants: ['coffee'] } }], reason: 'MERCHANT_BLACKLIST' },
    {
      what: "an amount over the program's per-transaction limit",
      program: [{ type: 'ProgramSettingsChanged', data: { programToken: PROGRAM, spendLimits: { transaction: 999, weekly: 0, monthly: 0 } } }],
      reason: 'GLOBAL_TRANSACTION_LIMIT',
    },
  ])('declines $what: the decline on the card, the transaction opened with it as result, in one commit', async ({ presented, program = [], fundingToken, reason }) => {
    const { result, writes } = await authorizations
      .given({ ...given(...program), [CARD_STREAM]: [card(fundingToken)] })
      .when((handler) => handler.execute(authorize(presented)))
      .then(declined(reason, facts(fundingToken ? { fundingToken } : {})));

    expect(result).toEqual({ result: reason, facts: facts(fundingToken ? { fundingToken } : {}), position: expect.stringMatching(/^\d+\/\d+$/) });
    expect(writes).toEqual([[CARD_STREAM, TRANSACTION_STREAM]]);
  });

  it("asks the program's endpoint, signed with its secret, and records the smaller amount it approves (the local amount at the same rate)", async () => {
    const { result } = await authorizations
      .given(given(enrolledAt('/partial')))
      .when((handler) => handler.execute(authorize(presentedRight, { partialApprovalCapable: true })))
      .then(approved(facts({ amount: 600, merchantAmount: 540 })));

    expect(result.facts.amount).toBe(600);
    const [asked] = endpoint.requestsTo('/partial');
    expect(endpoint.requests).toHaveLength(1);
    expect(asked.body).toMatchObject({ token: TRANSACTION, status: 'AUTHORIZATION', amount: 1000, merchant_amount: 900, partial_approval_capable: true, card: { token: CARD, last_four: '4242' }, created: NOW });
    const signed = { 'webhook-id': String(asked.headers['webhook-id']), 'webhook-timestamp': String(asked.headers['webhook-timestamp']), 'webhook-signature': String(asked.headers['webhook-signature']) };
    expect(signed['webhook-id']).toBe(TRANSACTION);
    expect(verifySignature('whsec_acme', signed, asked.raw)).toBe(true);
  });

  it('records the whole amount when the request did not allow a partial approval, whatever the endpoint offers', async () => {
    await authorizations
      .given(given(enrolledAt('/partial')))
      .when((handler) => handler.execute(authorize(presentedRight, { partialApprovalCapable: false })))
      .then(approved());

    expect(endpoint.requestsTo('/partial').map((request) => request.body.partial_approval_capable)).toEqual([false]);
  });

  it("records the endpoint's decline as the card's", async () => {
    await authorizations
      .given(given(enrolledAt('/no-funds')))
      .when((handler) => handler.execute(authorize()))
      .then(declined('INSUFFICIENT_FUNDS_PRELOAD'));
  });

  it('does not ask the endpoint about an authorization the card declines by itself', async () => {
    await authorizations
      .given(given(enrolledAt('/partial')))
      .when((handler) => handler.execute(authorize({ ...presentedRight, pin: '0000' }, { partialApprovalCapable: true })))
      .then(declined('INCORRECT_PIN'));

    expect(endpoint.requests).toEqual([]);
  });

  it("refuses a card that does not exist, and another program's card alike, recording nothing", async () => {
    await authorizations.given(given()).when((handler) => handler.execute(authorize(presentedRight, { cardToken: 'card_missing' }))).thenThrows(CardNotFound, { cardToken: 'card_missing' });
    const otherProgram = programCreated({ programToken: 'prog_other', name: 'Other', created: NOW });
    await authorizations
      .given({ ...given(), [programStreamId('prog_other')]: [otherProgram] })
      .when((handler) => handler.execute(authorize(presentedRight, { programToken: 'prog_other' })))
      .thenThrows(CardNotFound, { cardToken: CARD });
  });

  it('refuses a program that does not exist', async () => {
    await authorizations
      .given({ [CARD_STREAM]: [card()] })
      .when((handler) => handler.execute(authorize()))
      .thenThrows(ProgramNotFound, { programToken: PROGRAM });
  });

  it('refuses the whole write when the transaction token is taken (the gateway withdrew it): the card records no decision', async () => {
    const withdrawn: TransactionEvent = { type: 'AuthorizationWithdrawn', data: { transactionToken: TRANSACTION, programToken: PROGRAM, at: NOW } };
    await authorizations
      .given({ ...given(), [TRANSACTION_STREAM]: [withdrawn] })
      .when((handler) => handler.execute(authorize()))
      .thenThrows(WrongExpectedVersionError, { streamId: TRANSACTION_STREAM, actual: 0 });

    // The refusal is the answer at once: a stream that must be new is not a lost race to decide again.
    expect(decisions).toBe(1);
  });

  describe('when the program changes while the card decides', () => {
    /**
     * Another process pauses the program right after this decision loaded the folds: a real append of
     * the program stream at the handler's own fault point, so the write that follows finds the
     * program's version moved on.
     */
    const changingStateOnce = (env: PipelineEnvironment, state: 'PAUSED' | 'ACTIVE'): FaultPoints => {
      let paused = false;
      return {
        reached(point) {
          if (point !== 'folds-loaded' || paused) return;
          paused = true;
          const program = env.folds?.get(PROGRAM_STREAM, programDecider);
          if (!program) throw new Error('the program fold the decision was taken on is not kept');
          const pause = env.codec.encode(
            { type: 'ProgramSettingsChanged', data: { programToken: PROGRAM, state } },
            { eventId: '77777777-0000-4000-8000-000000000001', correlationId: 'corr-elsewhere', causationId: null, programToken: PROGRAM, occurredAt: NOW, writtenAt: NOW },
          );
          // The in-memory store checks and records a write within the call, so the pause stands before
          // the decision goes on; were it refused, the rejection would fail the scenario unhandled.
          void env.store.append(PROGRAM_STREAM, chainEvents(PROGRAM_STREAM, program.head, [pause]), program.version);
        },
      };
    };
    const racing = ledgerHandlerSpecification({
      handler: (env) => new AuthorizeCardSpendHandler(env, vault, programSpend(env.store), streamClient, changingStateOnce(env, 'PAUSED')),
      now: new Date(NOW),
    });
    const resuming = ledgerHandlerSpecification({
      handler: (env) => new AuthorizeCardSpendHandler(env, vault, programSpend(env.store), streamClient, changingStateOnce(env, 'ACTIVE')),
      now: new Date(NOW),
    });

    it("asks the program's endpoint when the decision taken again would approve, though the first would have declined", async () => {
      await resuming
        .given(given(enrolledAt('/no-funds'), { type: 'ProgramSettingsChanged', data: { programToken: PROGRAM, state: 'PAUSED' } }))
        .when((handler) => handler.execute(authorize()))
        .then([
          { streamId: PROGRAM_STREAM, events: [{ type: 'ProgramSettingsChanged', data: { programToken: PROGRAM, state: 'ACTIVE' } }] },
          ...Object.entries(declined('INSUFFICIENT_FUNDS_PRELOAD')).map(([streamId, events]) => ({ streamId, events })),
        ]);

      expect(endpoint.requestsTo('/no-funds')).toHaveLength(1);
    });

    it("refuses the decision taken on the program's old version and decides again on the paused program", async () => {
      const { writes } = await racing
        .given(given())
        .when((handler) => handler.execute(authorize()))
        .then([
          { streamId: PROGRAM_STREAM, events: [{ type: 'ProgramSettingsChanged', data: { programToken: PROGRAM, state: 'PAUSED' } }] },
          ...Object.entries(declined('INACTIVE_ACCOUNT')).map(([streamId, events]) => ({ streamId, events })),
        ]);

      expect(writes).toEqual([[PROGRAM_STREAM], [CARD_STREAM, TRANSACTION_STREAM]]);
    });
  });
});
