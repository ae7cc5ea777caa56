import { DETAILED_RESULTS, effectivePolarity, isFinancialEvent } from './transaction-event-facts';
import { TRANSACTION_EVENT_TYPES } from './transaction-values';

describe("Lithic's per-event facts", () => {
  it("gives money back on voids, expiries, returns, credits and a won dispute's credit only", () => {
    expect(TRANSACTION_EVENT_TYPES.filter((type) => effectivePolarity(type) === 'CREDIT')).toEqual([
      'VOID',
      'RETURN',
      'AUTHORIZATION_EXPIRY',
      'CREDIT_AUTHORIZATION',
      'CREDIT_AUTHORIZATION_ADVICE',
      'FINANCIAL_CREDIT_AUTHORIZATION',
      'DISPUTE_WON',
    ]);
  });

  it("counts as moving funds only the clearing, the return and its reversal, the single-message authorizations and a won dispute's credit", () => {
    expect(TRANSACTION_EVENT_TYPES.filter(isFinancialEvent)).toEqual(['CLEARING', 'RETURN', 'RETURN_REVERSAL', 'FINANCIAL_AUTHORIZATION', 'FINANCIAL_CREDIT_AUTHORIZATION', 'DISPUTE_WON']);
  });

  it('gives two results the same detailed result only when it is the general DECLINED', () => {
    const specific = Object.values(DETAILED_RESULTS).filter((detailed) => detailed !== 'DECLINED');
    expect(new Set(specific).size).toBe(specific.length);
  });
});
