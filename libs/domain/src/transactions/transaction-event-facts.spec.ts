import { DETAILED_RESULTS, effectivePolarity, isFinancialEvent } from './transaction-event-facts';
import { DECLINE_REASONS, TRANSACTION_EVENT_TYPES } from './transaction-values';

describe("Lithic's per-event facts", () => {
  it('gives money back on voids and returns only', () => {
    expect(TRANSACTION_EVENT_TYPES.filter((type) => effectivePolarity(type) === 'CREDIT')).toEqual(['VOID', 'RETURN']);
  });

  it('counts as moving funds only the clearing, the return and its reversal', () => {
    expect(TRANSACTION_EVENT_TYPES.filter(isFinancialEvent)).toEqual(['CLEARING', 'RETURN', 'RETURN_REVERSAL']);
  });

  it('never calls a decline APPROVED, and only APPROVED is', () => {
    expect(DECLINE_REASONS.filter((reason) => DETAILED_RESULTS[reason] === 'APPROVED')).toEqual([]);
    expect(DETAILED_RESULTS.APPROVED).toBe('APPROVED');
  });
});
