import { DecideDisputeCommand, type DisputeRequest } from '@ledger/contracts';
import {
  DisputeAmountOutOfRange,
  DisputeEvidenceEmpty,
  DisputeEvidenceNotFound,
  DisputeEvidenceStateConflict,
  DisputeEvidenceTooLarge,
  DisputeNotFound,
  DisputeResolutionInvalid,
  DisputeStateConflict,
  disputeStreamId,
  disputeTokenOf,
  MAX_EVIDENCE_BYTES,
  programDisputesStreamId,
  programStreamId,
  TransactionAlreadyDisputed,
  TransactionNotDisputable,
  TransactionNotFound,
  TransactionStateConflict,
  transactionDecider,
  transactionStreamId,
  type AuthorizationFacts,
  type DisputeEvent,
  type DisputeListed,
  type DisputeResolutionReason,
  type DisputeStatus,
  type ProgramEvent,
  type TransactionEvent,
} from '@ledger/domain';
import { commandHandler, type PipelineEnvironment } from '@ledger/event-store';
import { ledgerPipelineEnvironment } from '@ledger/runtime';
import { commandOrigin, ledgerHandlerSpecification, programCreated } from '@ledger/runtime/test';
import { DecideDisputeHandler } from './decide-dispute.handler';

const PROGRAM = 'prog_acme';
const OTHER_PROGRAM = 'prog_other';
const CARD = 'card_1';
const TRANSACTION = 'txn_purchase';
const DISPUTE = disputeTokenOf(TRANSACTION);
const EVIDENCE = 'evd_receipt';
const DISPUTE_STREAM = disputeStreamId(DISPUTE);
const TRANSACTION_STREAM = transactionStreamId(TRANSACTION);
const LIST_STREAM = programDisputesStreamId(PROGRAM);
const origin = commandOrigin(PROGRAM);
const NOW = '2025-03-14T09:26:53.589Z';
const PURCHASED_AT = '2025-03-10T12:00:00.000Z';
const FILED_AT = '2025-03-12T08:00:00.000Z';

/** A purchase of 50.00, approved, cleared and settled: 50.00 went to the merchant. */
const facts: AuthorizationFacts = {
  cardToken: CARD,
  programToken: PROGRAM,
  transactionToken: TRANSACTION,
  eventToken: 'evt_authorization',
  amount: 5000,
  merchant: { acceptorId: 'acq_1', city: 'Berlin', country: 'DEU', descriptor: 'SHOES', mcc: '5661', state: '' },
  merchantAmount: 5000,
  merchantCurrency: 'USD',
  authorizationCode: '123456',
  fundingToken: 'fund_default',
  at: PURCHASED_AT,
};
const authorized: TransactionEvent = { type: 'TransactionAuthorized', data: { ...facts, result: 'APPROVED' } };
const cleared: TransactionEvent = { type: 'TransactionCleared', data: { transactionToken: TRANSACTION, eventToken: 'evt_clearing', amount: 5000, at: PURCHASED_AT } };
const settled: TransactionEvent = { type: 'TransactionSettled', data: { transactionToken: TRANSACTION, at: PURCHASED_AT } };
const settledPurchase = [authorized, cleared, settled];

const filed: DisputeEvent = {
  type: 'DisputeFiled',
  data: { disputeToken: DISPUTE, programToken: PROGRAM, transactionToken: TRANSACTION, cardToken: CARD, amount: 3000, reason: 'FRAUD_CARD_PRESENT', customerFiledDate: null, customerNote: null, at: FILED_AT },
};
const moved = (status: DisputeStatus, resolutionReason: DisputeResolutionReason | null = null, at = FILED_AT): DisputeEvent => ({ type: 'DisputeStatusChanged', data: { disputeToken: DISPUTE, status, resolutionReason, at } });
const submitted = moved('SUBMITTED');
const evidenceRequested: DisputeEvent = { type: 'DisputeEvidenceRequested', data: { disputeToken: DISPUTE, evidenceToken: EVIDENCE, filename: 'receipt.pdf', at: FILED_AT } };
const listed = (disputeToken: string, at = FILED_AT): DisputeListed => ({ type: 'DisputeListed', data: { programToken: PROGRAM, disputeToken, at } });

/** The program, its settled purchase, and the dispute's events so far (none: not filed yet). */
const given = (dispute: DisputeEvent[] = [], transaction: TransactionEvent[] = settledPurchase) => ({
  [programStreamId(PROGRAM)]: [programCreated({ programToken: PROGRAM, created: PURCHASED_AT })],
  [TRANSACTION_STREAM]: transaction,
  ...(dispute.length > 0 ? { [DISPUTE_STREAM]: dispute, [LIST_STREAM]: [listed(DISPUTE)] } : {}),
});

const decide = (request: DisputeRequest, programToken = PROGRAM) => new DecideDisputeCommand({ ...origin, programToken }, request);
const file = (amount = 3000, transactionToken = TRANSACTION): Extract<DisputeRequest, { type: 'FileDispute' }> => ({ type: 'FileDispute', transactionToken, amount, reason: 'FRAUD_CARD_PRESENT' });
const advance = (status: DisputeStatus, resolutionReason?: DisputeResolutionReason): DisputeRequest => ({ type: 'AdvanceDispute', disputeToken: DISPUTE, status, ...(resolutionReason ? { resolutionReason } : {}) });
const upload = (content: Buffer): DisputeRequest => ({ type: 'UploadDisputeEvidence', disputeToken: DISPUTE, evidenceToken: EVIDENCE, contentBase64: content.toString('base64') });
const accepted = { token: DISPUTE, position: expect.stringMatching(/^\d+\/\d+$/) };

/** Another process on the same store: its own fold cache, its own ids. */
function anotherProcess(env: PipelineEnvironment): PipelineEnvironment {
  let n = 0;
  return ledgerPipelineEnvironment({ store: env.store, now: env.now, newId: () => `77777777-0000-4000-8000-${(n += 1).toString(16).padStart(12, '0')}` });
}

describe('DecideDisputeHandler', () => {
  const disputes = ledgerHandlerSpecification({ handler: (env) => new DecideDisputeHandler(env), now: new Date(NOW) });

  describe('filing', () => {
    it("files a settled purchase's dispute under a token made from the transaction's and lists it after the program's earlier disputes, in one write; the transaction is read, not written", async () => {
      const { result, writes } = await disputes
        .given({ ...given(), [LIST_STREAM]: [listed('dsp_earlier')] })
        .when((handler) => handler.execute(decide({ ...file(), customerFiledDate: '2025-03-11T00:00:00.000Z', customerNote: 'never arrived' })))
        .then({
          [DISPUTE_STREAM]: [
            {
              type: 'DisputeFiled',
              data: { disputeToken: DISPUTE, programToken: PROGRAM, transactionToken: TRANSACTION, cardToken: CARD, amount: 3000, reason: 'FRAUD_CARD_PRESENT', customerFiledDate: '2025-03-11T00:00:00.000Z', customerNote: 'never arrived', at: NOW },
            },
          ],
          [LIST_STREAM]: [listed(DISPUTE, NOW)],
        });

      expect(writes).toEqual([[DISPUTE_STREAM, LIST_STREAM]]);
      expect(result).toEqual(accepted);
    });

    it('files a purchase that cleared and is still SETTLING, for the whole of what it settled', async () => {
      await disputes
        .given(given([], [authorized, cleared]))
        .when((handler) => handler.execute(decide(file(5000))))
        .then({ [DISPUTE_STREAM]: [{ ...filed, data: { ...filed.data, amount: 5000, at: NOW } }], [LIST_STREAM]: [listed(DISPUTE, NOW)] });
    });

    it("refuses an unknown transaction, and another program's alike, even one that program disputed", async () => {
      await disputes.given(given()).when((handler) => handler.execute(decide(file(3000, 'txn_unknown')))).thenThrows(TransactionNotFound, { message: expect.stringContaining('txn_unknown') });
      await disputes.given(given()).when((handler) => handler.execute(decide(file(), OTHER_PROGRAM))).thenThrows(TransactionNotFound, { message: expect.stringContaining(TRANSACTION) });
      // Not TransactionAlreadyDisputed: that would tell the program another one's transaction exists.
      await disputes.given(given([filed])).when((handler) => handler.execute(decide(file(), OTHER_PROGRAM))).thenThrows(TransactionNotFound);
    });

    it('refuses a purchase that did not clear, and a return, which moved no money to the merchant', async () => {
      await disputes.given(given([], [authorized])).when((handler) => handler.execute(decide(file()))).thenThrows(TransactionNotDisputable, { message: expect.stringContaining('it is PENDING, not cleared') });
      const returned: TransactionEvent = { type: 'TransactionReturned', data: facts };
      await disputes.given(given([], [returned])).when((handler) => handler.execute(decide(file()))).thenThrows(TransactionNotDisputable, { message: expect.stringContaining('it moved no money to the merchant') });
    });

    it('refuses an amount above what the purchase settled, and one of nothing', async () => {
      await disputes.given(given()).when((handler) => handler.execute(decide(file(5001)))).thenThrows(DisputeAmountOutOfRange, { field: 'amount' });
      await disputes.given(given()).when((handler) => handler.execute(decide(file(0)))).thenThrows(DisputeAmountOutOfRange, { field: 'amount' });
    });

    it('refuses a second dispute of the transaction, the first one withdrawn or not', async () => {
      await disputes.given(given([filed])).when((handler) => handler.execute(decide(file()))).thenThrows(TransactionAlreadyDisputed);
      await disputes.given(given([filed, moved('CASE_CLOSED', 'WITHDRAWN')])).when((handler) => handler.execute(decide(file()))).thenThrows(TransactionAlreadyDisputed);
    });

    it('decides again on the transaction as it now stands when it changed since this process read it: a purchase that bounced meanwhile is not disputed', async () => {
      const { result } = await disputes
        .given(given([], [authorized, cleared]))
        .when(async (handler, env) => {
          // This process folded the purchase while it was SETTLING; another one then bounced it.
          await commandHandler(env, transactionDecider, TRANSACTION_STREAM).state();
          await commandHandler(anotherProcess(env), transactionDecider, TRANSACTION_STREAM).handle({ type: 'SettleTransaction', transactionToken: TRANSACTION, programToken: PROGRAM, fundingState: 'DISCONNECTED' }, origin);
          return handler.execute(decide(file())).catch((refusal: unknown) => refusal);
        })
        .then({ [TRANSACTION_STREAM]: [{ type: 'TransactionBounced', data: { transactionToken: TRANSACTION, at: NOW, fundingState: 'DISCONNECTED' } }] });

      expect(result).toBeInstanceOf(TransactionNotDisputable);
    });
  });

  describe('advance', () => {
    it("credits the transaction with the dispute's amount when the case is won, in the dispute's write", async () => {
      const { result, writes } = await disputes
        .given(given([filed, submitted]))
        .when((handler) => handler.execute(decide(advance('CASE_WON'))))
        .then({
          [DISPUTE_STREAM]: [moved('CASE_WON', 'WON_FIRST_CHARGEBACK', NOW)],
          // The credit's event token is the first id the handler draws.
          [TRANSACTION_STREAM]: [{ type: 'TransactionDisputeWon', data: { transactionToken: TRANSACTION, eventToken: disputes.id(1), amount: 3000, disputeToken: DISPUTE, at: NOW } }],
        });

      expect(writes).toEqual([[DISPUTE_STREAM, TRANSACTION_STREAM]]);
      expect(result).toEqual(accepted);
    });

    it('credits the amount as amended, and a win in arbitration is WON_ARBITRATION', async () => {
      const amended: DisputeEvent = { type: 'DisputeAmended', data: { disputeToken: DISPUTE, amount: 4500, at: FILED_AT } };
      await disputes
        .given(given([filed, amended, submitted, moved('REPRESENTMENT'), moved('PREARBITRATION'), moved('ARBITRATION')]))
        .when((handler) => handler.execute(decide(advance('CASE_WON'))))
        .then({
          [DISPUTE_STREAM]: [moved('CASE_WON', 'WON_ARBITRATION', NOW)],
          [TRANSACTION_STREAM]: [{ type: 'TransactionDisputeWon', data: { transactionToken: TRANSACTION, eventToken: disputes.id(1), amount: 4500, disputeToken: DISPUTE, at: NOW } }],
        });
    });

    it('moves the case to a next stage without touching the transaction', async () => {
      const { result, writes } = await disputes
        .given(given([filed, submitted]))
        .when((handler) => handler.execute(decide(advance('REPRESENTMENT'))))
        .then({ [DISPUTE_STREAM]: [moved('REPRESENTMENT', null, NOW)] });

      expect(writes).toEqual([[DISPUTE_STREAM]]);
      expect(result).toEqual(accepted);
    });

    it('closes a lost case, or one closed for a reason given, and credits nothing', async () => {
      await disputes.given(given([filed, submitted])).when((handler) => handler.execute(decide(advance('CASE_CLOSED')))).then({ [DISPUTE_STREAM]: [moved('CASE_CLOSED', 'CASE_LOST', NOW)] });
      await disputes
        .given(given([filed, submitted]))
        .when((handler) => handler.execute(decide(advance('CASE_CLOSED', 'NETWORK_REJECTED'))))
        .then({ [DISPUTE_STREAM]: [moved('CASE_CLOSED', 'NETWORK_REJECTED', NOW)] });
    });

    it("dates the move and its credit by the program's clock, not the wall clock", async () => {
      const aheadBy = 2 * 24 * 60 * 60 * 1000;
      const businessNow = new Date(new Date(NOW).getTime() + aheadBy).toISOString();
      const clockAdvanced: ProgramEvent = { type: 'ProgramClockAdvanced', data: { programToken: PROGRAM, offsetMs: aheadBy, frozenTime: businessNow, advancedAt: NOW } };
      await disputes
        .given({ ...given([filed, submitted]), [programStreamId(PROGRAM)]: [programCreated({ programToken: PROGRAM, created: PURCHASED_AT }), clockAdvanced] })
        .when((handler) => handler.execute(decide(advance('CASE_WON'))))
        .then({
          [DISPUTE_STREAM]: [moved('CASE_WON', 'WON_FIRST_CHARGEBACK', businessNow)],
          [TRANSACTION_STREAM]: [{ type: 'TransactionDisputeWon', data: { transactionToken: TRANSACTION, eventToken: disputes.id(1), amount: 3000, disputeToken: DISPUTE, at: businessNow } }],
        });
    });

    it("refuses an unknown dispute, and another program's alike", async () => {
      await disputes
        .given(given())
        .when((handler) => handler.execute(decide(advance('SUBMITTED'))))
        .thenThrows(DisputeNotFound, { disputeToken: DISPUTE });
      await disputes
        .given(given([filed]))
        .when((handler) => handler.execute(decide(advance('SUBMITTED'), OTHER_PROGRAM)))
        .thenThrows(DisputeNotFound, { disputeToken: DISPUTE });
    });

    it('refuses a move its stage does not lead to: a win before the network has the case, anything after it ended', async () => {
      await disputes.given(given([filed])).when((handler) => handler.execute(decide(advance('CASE_WON')))).thenThrows(DisputeStateConflict, { message: expect.stringContaining('is NEW; a move to CASE_WON') });
      await disputes
        .given(given([filed, submitted, moved('CASE_WON', 'WON_FIRST_CHARGEBACK')]))
        .when((handler) => handler.execute(decide(advance('CASE_CLOSED'))))
        .thenThrows(DisputeStateConflict, { message: expect.stringContaining('is CASE_WON') });
    });

    it('refuses a resolution reason of the other side, or on a stage that ends nothing', async () => {
      await disputes.given(given([filed, submitted])).when((handler) => handler.execute(decide(advance('CASE_WON', 'CASE_LOST')))).thenThrows(DisputeResolutionInvalid);
      await disputes.given(given([filed, submitted])).when((handler) => handler.execute(decide(advance('CASE_CLOSED', 'WON_FIRST_CHARGEBACK')))).thenThrows(DisputeResolutionInvalid);
      await disputes.given(given([filed])).when((handler) => handler.execute(decide(advance('SUBMITTED', 'CASE_LOST')))).thenThrows(DisputeResolutionInvalid);
    });

    it('refuses a win whose transaction cannot be credited (it bounced after the filing): the case does not move either', async () => {
      const bounced: TransactionEvent = { type: 'TransactionBounced', data: { transactionToken: TRANSACTION, at: FILED_AT, fundingState: 'DISCONNECTED' } };
      await disputes
        .given(given([filed, submitted], [authorized, cleared, bounced]))
        .when((handler) => handler.execute(decide(advance('CASE_WON'))))
        .thenThrows(TransactionStateConflict, { message: expect.stringContaining('is BOUNCED') });
    });
  });

  describe('update and withdrawal', () => {
    it('amends a NEW dispute with the fields sent alone', async () => {
      const { result } = await disputes
        .given(given([filed]))
        .when((handler) => handler.execute(decide({ type: 'AmendDispute', disputeToken: DISPUTE, amount: 5000, customerNote: 'never arrived' })))
        .then({ [DISPUTE_STREAM]: [{ type: 'DisputeAmended', data: { disputeToken: DISPUTE, amount: 5000, customerNote: 'never arrived', at: NOW } }] });

      expect(result).toEqual(accepted);
    });

    it("refuses an amount above what the dispute's transaction settled: the transaction is found from the dispute's stream", async () => {
      await disputes
        .given(given([filed]))
        .when((handler) => handler.execute(decide({ type: 'AmendDispute', disputeToken: DISPUTE, amount: 5001 })))
        .thenThrows(DisputeAmountOutOfRange, { message: expect.stringContaining("the transaction's settled 5000; got 5001") });
    });

    it("refuses an update once the case was submitted, and another program's dispute", async () => {
      await disputes.given(given([filed, submitted])).when((handler) => handler.execute(decide({ type: 'AmendDispute', disputeToken: DISPUTE, customerNote: 'late' }))).thenThrows(DisputeStateConflict, { message: expect.stringContaining('is SUBMITTED; an update') });
      await disputes.given(given([filed])).when((handler) => handler.execute(decide({ type: 'AmendDispute', disputeToken: DISPUTE, customerNote: 'x' }, OTHER_PROGRAM))).thenThrows(DisputeNotFound);
    });

    it('withdraws an open case: CASE_CLOSED, WITHDRAWN, and nothing credited', async () => {
      await disputes
        .given(given([filed, submitted]))
        .when((handler) => handler.execute(decide({ type: 'WithdrawDispute', disputeToken: DISPUTE })))
        .then({ [DISPUTE_STREAM]: [moved('CASE_CLOSED', 'WITHDRAWN', NOW)] });
    });

    it("refuses to withdraw a case that ended, an unknown one, and another program's", async () => {
      await disputes.given(given([filed, submitted, moved('CASE_CLOSED', 'CASE_LOST')])).when((handler) => handler.execute(decide({ type: 'WithdrawDispute', disputeToken: DISPUTE }))).thenThrows(DisputeStateConflict, { message: expect.stringContaining('a withdrawal') });
      await disputes.given(given()).when((handler) => handler.execute(decide({ type: 'WithdrawDispute', disputeToken: DISPUTE }))).thenThrows(DisputeNotFound);
      await disputes.given(given([filed])).when((handler) => handler.execute(decide({ type: 'WithdrawDispute', disputeToken: DISPUTE }, OTHER_PROGRAM))).thenThrows(DisputeNotFound);
    });
  });

  describe('evidence', () => {
    it('asks for an evidence file, which then waits for its upload', async () => {
      const { result } = await disputes
        .given(given([filed]))
        .when((handler) => handler.execute(decide({ type: 'RequestDisputeEvidence', disputeToken: DISPUTE, evidenceToken: EVIDENCE, filename: 'receipt.pdf' })))
        .then({ [DISPUTE_STREAM]: [{ ...evidenceRequested, data: { ...evidenceRequested.data, at: NOW } }] });

      expect(result).toEqual(accepted);
    });

    it("refuses new evidence on a case that ended, and on another program's case", async () => {
      const request: DisputeRequest = { type: 'RequestDisputeEvidence', disputeToken: DISPUTE, evidenceToken: EVIDENCE };
      await disputes.given(given([filed, submitted, moved('CASE_WON', 'WON_FIRST_CHARGEBACK')])).when((handler) => handler.execute(decide(request))).thenThrows(DisputeStateConflict, { message: expect.stringContaining('new evidence') });
      await disputes.given(given([filed])).when((handler) => handler.execute(decide(request, OTHER_PROGRAM))).thenThrows(DisputeNotFound);
    });

    it("keeps the bytes the base64 carries: the size is theirs, not the text's", async () => {
      const content = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x34, 0x00, 0xff, 0xfe, 0x0a]);
      const { result } = await disputes
        .given(given([filed, evidenceRequested]))
        .when((handler) => handler.execute(decide(upload(content))))
        .then({ [DISPUTE_STREAM]: [{ type: 'DisputeEvidenceUploaded', data: { disputeToken: DISPUTE, evidenceToken: EVIDENCE, size: 12, contentBase64: 'JVBERi0xLjQA//4K', at: NOW } }] });

      expect(result).toEqual(accepted);
    });

    it('takes a file of the most bytes kept, whose base64 is longer than that; one byte more is refused', async () => {
      const largest = Buffer.alloc(MAX_EVIDENCE_BYTES, 7);
      expect(largest.toString('base64').length).toBeGreaterThan(MAX_EVIDENCE_BYTES);
      await disputes
        .given(given([filed, evidenceRequested]))
        .when((handler) => handler.execute(decide(upload(largest))))
        .then({ [DISPUTE_STREAM]: [{ type: 'DisputeEvidenceUploaded', data: { disputeToken: DISPUTE, evidenceToken: EVIDENCE, size: MAX_EVIDENCE_BYTES, contentBase64: largest.toString('base64'), at: NOW } }] });
      await disputes
        .given(given([filed, evidenceRequested]))
        .when((handler) => handler.execute(decide(upload(Buffer.alloc(MAX_EVIDENCE_BYTES + 1, 7)))))
        .thenThrows(DisputeEvidenceTooLarge, { field: 'body' });
    });

    it('refuses an empty upload, a second upload, and an upload no evidence was asked for', async () => {
      const uploaded: DisputeEvent = { type: 'DisputeEvidenceUploaded', data: { disputeToken: DISPUTE, evidenceToken: EVIDENCE, size: 3, contentBase64: 'AQID', at: FILED_AT } };
      await disputes.given(given([filed, evidenceRequested])).when((handler) => handler.execute(decide(upload(Buffer.alloc(0))))).thenThrows(DisputeEvidenceEmpty);
      await disputes.given(given([filed, evidenceRequested, uploaded])).when((handler) => handler.execute(decide(upload(Buffer.from('again'))))).thenThrows(DisputeEvidenceStateConflict, { message: expect.stringContaining('is UPLOADED') });
      await disputes.given(given([filed])).when((handler) => handler.execute(decide(upload(Buffer.from('receipt'))))).thenThrows(DisputeEvidenceNotFound);
    });

    it('deletes evidence; deleting it again appends nothing and still answers the dispute, at the position it read', async () => {
      const request: DisputeRequest = { type: 'DeleteDisputeEvidence', disputeToken: DISPUTE, evidenceToken: EVIDENCE };
      const deleted: DisputeEvent = { type: 'DisputeEvidenceDeleted', data: { disputeToken: DISPUTE, evidenceToken: EVIDENCE, at: NOW } };
      await disputes.given(given([filed, evidenceRequested])).when((handler) => handler.execute(decide(request))).then({ [DISPUTE_STREAM]: [deleted] });
      const { result } = await disputes
        .given(given([filed, evidenceRequested, { ...deleted, data: { ...deleted.data, at: FILED_AT } }]))
        .when((handler) => handler.execute(decide(request)))
        .then({});

      // Nothing written: the position is the newest event the decision read, for a caller to wait on.
      expect(result).toEqual(accepted);
    });

    it('refuses to delete evidence the dispute does not have', async () => {
      await disputes
        .given(given([filed]))
        .when((handler) => handler.execute(decide({ type: 'DeleteDisputeEvidence', disputeToken: DISPUTE, evidenceToken: 'evd_unknown' })))
        .thenThrows(DisputeEvidenceNotFound, { message: expect.stringContaining('evd_unknown') });
    });
  });
});
