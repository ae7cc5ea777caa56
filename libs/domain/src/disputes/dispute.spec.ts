import { transactionDecider, type Transaction, type TransactionEvent } from '../transactions/transaction';
import { TransactionNotFound } from '../transactions/transaction-errors';
import { balanceOf } from '../financial-accounts/account-balance';
import { cardToken, coffeeShop, fundingToken, now, otherProgramToken, programToken } from '../../test/fixtures';
import { type Dispute, type DisputeCommand, disputeCredit, disputeDecider, type DisputeEvent, disputeStreamId, disputeTokenOf, type FiledDispute } from './dispute';
import {
  DisputeAmountOutOfRange,
  DisputeEvidenceEmpty,
  DisputeEvidenceStateConflict,
  DisputeEvidenceTooLarge,
  DisputeNotFound,
  DisputeResolutionInvalid,
  DisputeStateConflict,
  TransactionAlreadyDisputed,
  TransactionNotDisputable,
} from './dispute-errors';
import { decideDisputeAndTransaction } from './dispute-and-transaction';
import { MAX_EVIDENCE_BYTES } from './dispute-values';

const transactionToken = '3a1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const disputeToken = disputeTokenOf(transactionToken);
const evidenceToken = '8e7d6c5b-4a39-4281-9f0e-1d2c3b4a5968';
const at = now.toISOString();

const authorized: TransactionEvent = {
  type: 'TransactionAuthorized',
  data: { cardToken, programToken, transactionToken, eventToken: 'e1', amount: 5000, merchant: coffeeShop, merchantAmount: 5000, merchantCurrency: 'USD', authorizationCode: '123456', fundingToken, at, result: 'APPROVED' },
};
const cleared: TransactionEvent = { type: 'TransactionCleared', data: { transactionToken, eventToken: 'e2', amount: 5000, at } };
const settled: TransactionEvent = { type: 'TransactionSettled', data: { transactionToken, at } };

const transactionAfter = (events: TransactionEvent[]): Transaction => events.reduce(transactionDecider.evolve, transactionDecider.initialState());
const settledPurchase = transactionAfter([authorized, cleared, settled]);

const filed: DisputeEvent = {
  type: 'DisputeFiled',
  data: { disputeToken, programToken, transactionToken, cardToken, amount: 3000, reason: 'FRAUD_CARD_PRESENT', customerFiledDate: null, customerNote: null, at },
};
const moved = (status: FiledDispute['status'], resolutionReason: FiledDispute['resolutionReason'] = null): DisputeEvent => ({ type: 'DisputeStatusChanged', data: { disputeToken, status, resolutionReason, at } });
const evidenceRequested: DisputeEvent = { type: 'DisputeEvidenceRequested', data: { disputeToken, evidenceToken, filename: 'receipt.pdf', at } };

function given(events: DisputeEvent[], transaction: Transaction = settledPurchase) {
  const state: Dispute = events.reduce(disputeDecider.evolve, disputeDecider.initialState());
  return { state, when: (command: DisputeCommand) => disputeDecider.decide(command, state, { now, transaction }) };
}

const file = (amount = 3000): DisputeCommand => ({ type: 'FileDispute', programToken, transactionToken, amount, reason: 'FRAUD_CARD_PRESENT' });
const advance = (status: FiledDispute['status'], resolutionReason?: FiledDispute['resolutionReason'] & string): DisputeCommand => ({ type: 'AdvanceDispute', programToken, disputeToken, status, resolutionReason });

describe('dispute', () => {
  it("lives on a stream of its own, under a token made from its transaction's", () => {
    expect(disputeStreamId(disputeToken)).toBe(`dispute-${disputeToken}`);
    expect(disputeTokenOf(transactionToken.toUpperCase())).toBe(disputeToken);
    expect(disputeToken).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  describe('filing', () => {
    it('given a settled purchase, when disputed for part of it, then the dispute is filed NEW', () => {
      expect(given([]).when(file())).toEqual([filed]);
      expect(given([filed]).state).toMatchObject({ status: 'NEW', amount: 3000, resolutionReason: null, created: at });
    });

    it('given a settled purchase, when disputed for more than it settled, then it is refused', () => {
      expect(() => given([]).when(file(5001))).toThrow(DisputeAmountOutOfRange);
      expect(() => given([]).when(file(0))).toThrow(DisputeAmountOutOfRange);
    });

    it('given a pending authorization, when disputed, then it is refused: nothing cleared yet', () => {
      expect(() => given([], transactionAfter([authorized])).when(file())).toThrow(TransactionNotDisputable);
    });

    it("given another program's or no transaction, when disputed, then it is not found", () => {
      expect(() => given([], { status: 'ABSENT' }).when(file())).toThrow(TransactionNotFound);
      expect(() => given([]).when({ ...file(), programToken: otherProgramToken } as DisputeCommand)).toThrow(TransactionNotFound);
    });

    it('given a dispute of the transaction, when disputed again, then it is refused: a transaction is disputed once', () => {
      expect(() => given([filed]).when(file())).toThrow(TransactionAlreadyDisputed);
    });
  });

  describe('update and withdrawal', () => {
    it('given a NEW dispute, when updated, then only the fields sent change', () => {
      const events = given([filed]).when({ type: 'AmendDispute', programToken, disputeToken, amount: 4000, customerNote: 'never arrived' });
      expect(events).toEqual([{ type: 'DisputeAmended', data: { disputeToken, at, amount: 4000, customerNote: 'never arrived' } }]);
      expect(given([filed, ...events]).state).toMatchObject({ amount: 4000, customerNote: 'never arrived', reason: 'FRAUD_CARD_PRESENT' });
    });

    it('given a submitted dispute, when updated, then it is refused: only NEW can be changed', () => {
      expect(() => given([filed, moved('SUBMITTED')]).when({ type: 'AmendDispute', programToken, disputeToken, amount: 1 })).toThrow(DisputeStateConflict);
    });

    it('given an open dispute, when withdrawn, then it is closed WITHDRAWN; a closed one cannot be withdrawn', () => {
      const events = given([filed, moved('SUBMITTED')]).when({ type: 'WithdrawDispute', programToken, disputeToken });
      expect(events).toEqual([moved('CASE_CLOSED', 'WITHDRAWN')]);
      expect(() => given([filed, ...events]).when({ type: 'WithdrawDispute', programToken, disputeToken })).toThrow(DisputeStateConflict);
    });

    it("given another program's dispute, when read or changed, then it is not found", () => {
      expect(() => given([filed]).when({ type: 'WithdrawDispute', programToken: otherProgramToken, disputeToken })).toThrow(DisputeNotFound);
    });
  });

  describe('lifecycle', () => {
    it('given a dispute, when it goes through every stage, then each stage dates itself', () => {
      const history = [filed, moved('SUBMITTED'), moved('REPRESENTMENT'), moved('PREARBITRATION'), moved('ARBITRATION')];
      expect(given(history).state).toMatchObject({ status: 'ARBITRATION', dates: { networkFiled: at, representment: at, prearbitration: at, arbitration: at, resolution: null } });
      expect(given(history).when(advance('CASE_WON'))).toEqual([moved('CASE_WON', 'WON_ARBITRATION')]);
    });

    it('given a NEW dispute, when won at once, then it is refused: it was never submitted', () => {
      expect(() => given([filed]).when(advance('CASE_WON'))).toThrow(DisputeStateConflict);
    });

    it('given a submitted dispute, when closed without a reason, then it is lost; a win reason on a closed case is refused', () => {
      expect(given([filed, moved('SUBMITTED')]).when(advance('CASE_CLOSED'))).toEqual([moved('CASE_CLOSED', 'CASE_LOST')]);
      expect(() => given([filed, moved('SUBMITTED')]).when(advance('CASE_CLOSED', 'WON_FIRST_CHARGEBACK'))).toThrow(DisputeResolutionInvalid);
      expect(() => given([filed]).when(advance('SUBMITTED', 'CASE_LOST'))).toThrow(DisputeResolutionInvalid);
    });

    it('given a won dispute, when moved again, then it is refused: the case is over', () => {
      expect(() => given([filed, moved('SUBMITTED'), moved('CASE_WON', 'WON_FIRST_CHARGEBACK')]).when(advance('CASE_CLOSED'))).toThrow(DisputeStateConflict);
    });
  });

  describe('money', () => {
    const dispute = given([filed, moved('SUBMITTED')]).state as FiledDispute;

    it('when won, then its amount comes back on the transaction: the balance moves back by it', () => {
      const won = given([filed, moved('SUBMITTED')]).when(advance('CASE_WON'));
      const credit = disputeCredit(dispute, won, 'credit-event');
      expect(credit).toEqual({ type: 'CreditDisputeWon', transactionToken, programToken, disputeToken, eventToken: 'credit-event', amount: 3000 });
      const creditEvents = transactionDecider.decide(credit!, settledPurchase, { now });
      const after = creditEvents.reduce(transactionDecider.evolve, settledPurchase);
      expect(after).toMatchObject({ status: 'SETTLED', amount: 2000, settledAmount: 2000 });
      expect(balanceOf([settledPurchase]).total).toBe(-5000n);
      expect(balanceOf([after]).total).toBe(-2000n);
    });

    it('when lost or moved on, then nothing comes back', () => {
      expect(disputeCredit(dispute, given([filed, moved('SUBMITTED')]).when(advance('CASE_CLOSED')), 'credit-event')).toBeNull();
      expect(disputeCredit(dispute, given([filed, moved('SUBMITTED')]).when(advance('REPRESENTMENT')), 'credit-event')).toBeNull();
    });

    it('given a submitted case, when won, then the dispute and its transaction are decided together: the status, and the credit of its amount', () => {
      const decided = decideDisputeAndTransaction(advance('CASE_WON'), dispute, settledPurchase, now, 'credit-event');
      expect(decided.dispute).toEqual(given([filed, moved('SUBMITTED')]).when(advance('CASE_WON')));
      expect(decided.transaction).toEqual(transactionDecider.decide({ type: 'CreditDisputeWon', transactionToken, programToken, disputeToken, eventToken: 'credit-event', amount: 3000 }, settledPurchase, { now }));
      expect(decided.transaction).toHaveLength(1);
    });

    it('given a submitted case, when closed, then only the dispute is decided', () => {
      expect(decideDisputeAndTransaction(advance('CASE_CLOSED'), dispute, settledPurchase, now, 'credit-event')).toEqual({ dispute: given([filed, moved('SUBMITTED')]).when(advance('CASE_CLOSED')), transaction: [] });
    });

    it('a credit for more than the transaction still has settled is refused', () => {
      expect(() => transactionDecider.decide({ type: 'CreditDisputeWon', transactionToken, programToken, disputeToken, eventToken: 'x', amount: 5001 }, settledPurchase, { now })).toThrow();
    });
  });

  describe('evidence', () => {
    it('given a dispute, when evidence is requested, then it waits PENDING for its upload', () => {
      expect(given([filed]).when({ type: 'RequestDisputeEvidence', programToken, disputeToken, evidenceToken, filename: 'receipt.pdf' })).toEqual([evidenceRequested]);
      expect((given([filed, evidenceRequested]).state as FiledDispute).evidences).toEqual([{ evidenceToken, filename: 'receipt.pdf', status: 'PENDING', created: at, size: null, contentBase64: null }]);
    });

    it('given a pending upload, when the bytes arrive, then the file is kept in the event, and a second upload is refused', () => {
      const content = Buffer.from('%PDF-1.4 receipt');
      const events = given([filed, evidenceRequested]).when({ type: 'UploadDisputeEvidence', programToken, disputeToken, evidenceToken, content });
      expect(events).toEqual([{ type: 'DisputeEvidenceUploaded', data: { disputeToken, evidenceToken, size: content.byteLength, contentBase64: content.toString('base64'), at } }]);
      expect(() => given([filed, evidenceRequested, ...events]).when({ type: 'UploadDisputeEvidence', programToken, disputeToken, evidenceToken, content })).toThrow(DisputeEvidenceStateConflict);
    });

    it('given a pending upload, when it is empty or over the limit, then it is refused', () => {
      const state = given([filed, evidenceRequested]);
      expect(() => state.when({ type: 'UploadDisputeEvidence', programToken, disputeToken, evidenceToken, content: new Uint8Array(0) })).toThrow(DisputeEvidenceEmpty);
      expect(() => state.when({ type: 'UploadDisputeEvidence', programToken, disputeToken, evidenceToken, content: new Uint8Array(MAX_EVIDENCE_BYTES + 1) })).toThrow(DisputeEvidenceTooLarge);
    });

    it('given evidence, when deleted, then it is DELETED, and deleting it again changes nothing', () => {
      const events = given([filed, evidenceRequested]).when({ type: 'DeleteDisputeEvidence', programToken, disputeToken, evidenceToken });
      expect((given([filed, evidenceRequested, ...events]).state as FiledDispute).evidences[0]?.status).toBe('DELETED');
      expect(given([filed, evidenceRequested, ...events]).when({ type: 'DeleteDisputeEvidence', programToken, disputeToken, evidenceToken })).toEqual([]);
    });
  });
});
