import { programLimitExceeded, programSpendStanding } from './program-spend-limits';

describe('program spend limits', () => {
  const none = { weekly: 0n, monthly: 0n };

  it('treats every limit of 0 as no limit', () => {
    expect(programLimitExceeded({ transaction: 0, weekly: 0, monthly: 0 }, 100_000_000, { weekly: 10n ** 20n, monthly: 10n ** 20n })).toBeNull();
  });

  it('declines GLOBAL_TRANSACTION_LIMIT for one amount above the limit; equal is allowed', () => {
    expect(programLimitExceeded({ transaction: 500, weekly: 0, monthly: 0 }, 501, none)).toBe('GLOBAL_TRANSACTION_LIMIT');
    expect(programLimitExceeded({ transaction: 500, weekly: 0, monthly: 0 }, 500, none)).toBeNull();
  });

  it.each([
    ['weekly', 'GLOBAL_WEEKLY_LIMIT'],
    ['monthly', 'GLOBAL_MONTHLY_LIMIT'],
  ] as const)('declines the %s limit when what the window spent plus the amount passes it; reaching it is allowed', (window, reason) => {
    const limits = { transaction: 0, weekly: 0, monthly: 0, [window]: 1000 };
    const spent = { ...none, [window]: 600n };
    expect(programLimitExceeded(limits, 400, spent)).toBeNull();
    expect(programLimitExceeded(limits, 401, spent)).toBe(reason);
  });

  it('checks transaction, then weekly, then monthly', () => {
    const limits = { transaction: 500, weekly: 1000, monthly: 1000 };
    expect(programLimitExceeded(limits, 501, { weekly: 1000n, monthly: 1000n })).toBe('GLOBAL_TRANSACTION_LIMIT');
    expect(programLimitExceeded(limits, 1, { weekly: 1000n, monthly: 1000n })).toBe('GLOBAL_WEEKLY_LIMIT');
    expect(programLimitExceeded(limits, 1, { weekly: 0n, monthly: 1000n })).toBe('GLOBAL_MONTHLY_LIMIT');
  });

  it('compares spend past 2^53 exactly', () => {
    const limits = { transaction: 0, weekly: 0, monthly: Number.MAX_SAFE_INTEGER };
    expect(programLimitExceeded(limits, 1, { weekly: 0n, monthly: BigInt(Number.MAX_SAFE_INTEGER) })).toBe('GLOBAL_MONTHLY_LIMIT');
    expect(programLimitExceeded(limits, 1, { weekly: 0n, monthly: BigInt(Number.MAX_SAFE_INTEGER) - 1n })).toBeNull();
  });

  describe('standing (Lithic\'s account spend limits)', () => {
    it('shows only the windows that have a limit', () => {
      expect(programSpendStanding({ transaction: 500, weekly: 0, monthly: 0 }, {})).toEqual({});
      expect(Object.keys(programSpendStanding({ transaction: 0, weekly: 0, monthly: 1000 }, { monthly: 10n }))).toEqual(['monthly']);
    });

    it('leaves exactly what the next authorization may spend, never below 0', () => {
      const limits = { transaction: 0, weekly: 1000, monthly: 5000 };
      const standing = programSpendStanding(limits, { weekly: 600n, monthly: 5200n });
      expect(standing).toEqual({ weekly: { limit: 1000, spent: 600n, available: 400n }, monthly: { limit: 5000, spent: 5200n, available: 0n } });
      // The class of the rule: available is the largest amount the decline rule still approves.
      expect(programLimitExceeded(limits, Number(standing.weekly!.available), { weekly: 600n, monthly: 0n })).toBeNull();
      expect(programLimitExceeded(limits, Number(standing.weekly!.available) + 1, { weekly: 600n, monthly: 0n })).toBe('GLOBAL_WEEKLY_LIMIT');
    });
  });
});
