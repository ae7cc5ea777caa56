import { NO_ACCOUNT_SPEND_LIMITS } from './program';
import { programLimitBreach, programLimitExceeded, programSpendStanding, programWindowStart, windowsToTally } from './program-spend-limits';

describe('program spend limits', () => {
  const none = { daily: 0n, weekly: 0n, monthly: 0n, lifetime: 0n };
  const noAccountLimits = NO_ACCOUNT_SPEND_LIMITS;
  const noPlatformLimits = { transaction: 0, weekly: 0, monthly: 0 };

  it('treats every limit of 0 as no limit', () => {
    const huge = 10n ** 20n;
    expect(programLimitExceeded(noPlatformLimits, noAccountLimits, 100_000_000, { daily: huge, weekly: huge, monthly: huge, lifetime: huge })).toBeNull();
  });

  it('declines GLOBAL_TRANSACTION_LIMIT for one amount above the limit; equal is allowed', () => {
    expect(programLimitExceeded({ transaction: 500, weekly: 0, monthly: 0 }, noAccountLimits, 501, none)).toBe('GLOBAL_TRANSACTION_LIMIT');
    expect(programLimitExceeded({ transaction: 500, weekly: 0, monthly: 0 }, noAccountLimits, 500, none)).toBeNull();
  });

  it.each([
    ['weekly', 'GLOBAL_WEEKLY_LIMIT'],
    ['monthly', 'GLOBAL_MONTHLY_LIMIT'],
  ] as const)('declines the %s limit when what the window spent plus the amount passes it; reaching it is allowed', (window, reason) => {
    const limits = { ...noPlatformLimits, [window]: 1000 };
    const spent = { ...none, [window]: 600n };
    expect(programLimitExceeded(limits, noAccountLimits, 400, spent)).toBeNull();
    expect(programLimitExceeded(limits, noAccountLimits, 401, spent)).toBe(reason);
  });

  describe("Lithic's account limits (daily, lifetime)", () => {
    it.each([
      ['daily', 'GLOBAL_WEEKLY_LIMIT'],
      ['lifetime', 'GLOBAL_MONTHLY_LIMIT'],
    ] as const)('given a %s limit, when the window spent plus the amount passes it, then it declines %s; reaching it is allowed', (window, reason) => {
      const account = { ...noAccountLimits, [window]: 1000 };
      const spent = { ...none, [window]: 600n };
      expect(programLimitExceeded(noPlatformLimits, account, 400, spent)).toBeNull();
      expect(programLimitExceeded(noPlatformLimits, account, 401, spent)).toBe(reason);
    });

    it("given a daily or lifetime decline, then the breach names Lithic's account limit; the spec's own limits name none", () => {
      const limits = { transaction: 500, weekly: 1000, monthly: 1000 };
      const full = { daily: 1000n, weekly: 1000n, monthly: 1000n, lifetime: 1000n };
      expect(programLimitBreach(noPlatformLimits, { daily: 1000, lifetime: 0 }, 1, full)).toEqual({ result: 'GLOBAL_WEEKLY_LIMIT', accountLimit: 'DAILY' });
      expect(programLimitBreach(noPlatformLimits, { daily: 0, lifetime: 1000 }, 1, full)).toEqual({ result: 'GLOBAL_MONTHLY_LIMIT', accountLimit: 'LIFETIME' });
      expect(programLimitBreach(limits, noAccountLimits, 1, full)).toEqual({ result: 'GLOBAL_WEEKLY_LIMIT' });
      expect(programLimitBreach(limits, noAccountLimits, 501, none)).toEqual({ result: 'GLOBAL_TRANSACTION_LIMIT' });
      expect(programLimitBreach(limits, noAccountLimits, 1, none)).toBeNull();
    });

    it('given both sets, when several limits are passed, then the shortest window names the decline', () => {
      const limits = { transaction: 500, weekly: 1000, monthly: 1000 };
      const account = { daily: 1000, lifetime: 1000 };
      const full = { daily: 1000n, weekly: 1000n, monthly: 1000n, lifetime: 1000n };
      expect(programLimitExceeded(limits, account, 501, full)).toBe('GLOBAL_TRANSACTION_LIMIT');
      expect(programLimitExceeded(limits, account, 1, full)).toBe('GLOBAL_WEEKLY_LIMIT');
      expect(programLimitExceeded(limits, account, 1, { ...full, daily: 0n, weekly: 0n })).toBe('GLOBAL_MONTHLY_LIMIT');
      expect(programLimitExceeded(limits, account, 1, { ...none, lifetime: 1000n })).toBe('GLOBAL_MONTHLY_LIMIT');
    });

    it('tallies only the windows that have a limit, shortest first', () => {
      expect(windowsToTally(noPlatformLimits, noAccountLimits)).toEqual([]);
      expect(windowsToTally({ transaction: 500, weekly: 0, monthly: 300 }, { daily: 0, lifetime: 900 })).toEqual(['monthly', 'lifetime']);
      expect(windowsToTally({ transaction: 0, weekly: 1, monthly: 1 }, { daily: 1, lifetime: 1 })).toEqual(['daily', 'weekly', 'monthly', 'lifetime']);
    });

    it('counts the daily window over the trailing 24 hours and the lifetime over every transaction', () => {
      const now = new Date('2026-11-27T10:00:00.000Z');
      expect(programWindowStart('DAILY', now).toISOString()).toBe('2026-11-26T10:00:00.000Z');
      expect(programWindowStart('FOREVER', now).getTime()).toBe(0);
    });
  });

  it('checks transaction, then weekly, then monthly', () => {
    const limits = { transaction: 500, weekly: 1000, monthly: 1000 };
    expect(programLimitExceeded(limits, noAccountLimits, 501, { ...none, weekly: 1000n, monthly: 1000n })).toBe('GLOBAL_TRANSACTION_LIMIT');
    expect(programLimitExceeded(limits, noAccountLimits, 1, { ...none, weekly: 1000n, monthly: 1000n })).toBe('GLOBAL_WEEKLY_LIMIT');
    expect(programLimitExceeded(limits, noAccountLimits, 1, { ...none, weekly: 0n, monthly: 1000n })).toBe('GLOBAL_MONTHLY_LIMIT');
  });

  it('compares spend past 2^53 exactly', () => {
    const limits = { transaction: 0, weekly: 0, monthly: Number.MAX_SAFE_INTEGER };
    expect(programLimitExceeded(limits, noAccountLimits, 1, { ...none, monthly: BigInt(Number.MAX_SAFE_INTEGER) })).toBe('GLOBAL_MONTHLY_LIMIT');
    expect(programLimitExceeded(limits, noAccountLimits, 1, { ...none, monthly: BigInt(Number.MAX_SAFE_INTEGER) - 1n })).toBeNull();
  });

  describe('standing (Lithic\'s account spend limits)', () => {
    it('shows only the windows that have a limit', () => {
      expect(programSpendStanding({ transaction: 500, weekly: 0, monthly: 0 }, noAccountLimits, {})).toEqual({});
      expect(Object.keys(programSpendStanding({ transaction: 0, weekly: 0, monthly: 1000 }, noAccountLimits, { monthly: 10n }))).toEqual(['monthly']);
      expect(Object.keys(programSpendStanding(noPlatformLimits, { daily: 10, lifetime: 20 }, {}))).toEqual(['daily', 'lifetime']);
    });

    it('leaves exactly what the next authorization may spend, never below 0', () => {
      const limits = { transaction: 0, weekly: 1000, monthly: 5000 };
      const standing = programSpendStanding(limits, noAccountLimits, { weekly: 600n, monthly: 5200n });
      expect(standing).toEqual({ weekly: { limit: 1000, spent: 600n, available: 400n }, monthly: { limit: 5000, spent: 5200n, available: 0n } });
      // The class of the rule: available is the largest amount the decline rule still approves.
      expect(programLimitExceeded(limits, noAccountLimits, Number(standing.weekly!.available), { ...none, weekly: 600n })).toBeNull();
      expect(programLimitExceeded(limits, noAccountLimits, Number(standing.weekly!.available) + 1, { ...none, weekly: 600n })).toBe('GLOBAL_WEEKLY_LIMIT');
    });

    it('leaves exactly what the daily limit still approves', () => {
      const account = { daily: 1000, lifetime: 0 };
      const standing = programSpendStanding(noPlatformLimits, account, { daily: 250n });
      expect(standing).toEqual({ daily: { limit: 1000, spent: 250n, available: 750n } });
      expect(programLimitExceeded(noPlatformLimits, account, 750, { ...none, daily: 250n })).toBeNull();
      expect(programLimitExceeded(noPlatformLimits, account, 751, { ...none, daily: 250n })).toBe('GLOBAL_WEEKLY_LIMIT');
    });
  });
});
