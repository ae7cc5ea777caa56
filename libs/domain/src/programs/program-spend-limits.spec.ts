import { programLimitExceeded } from './program-spend-limits';

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
});
