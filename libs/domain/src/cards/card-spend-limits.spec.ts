import { cardSpendLimitStanding } from './card-spend-limits';
import { SpendHistory } from './spend-history';
import { now } from '../../test/fixtures';

const HOUR = 3_600_000;
const ago = (ms: number): string => new Date(now.getTime() - ms).toISOString();
const spend = (...entries: [amount: number, at: string][]): SpendHistory =>
  SpendHistory.of(entries.map(([amount, at], index) => ({ transactionToken: `txn-${index}`, amount, at: Date.parse(at), version: 0 })));

describe('a card\'s standing against its spend limit', () => {
  it('given a DAILY limit of 1000 and 600 spent 3 hours ago, when asked, then 400 is available under daily', () => {
    expect(cardSpendLimitStanding({ spendLimit: 1000, spendLimitDuration: 'DAILY', spend: spend([600, ago(3 * HOUR)]) }, now)).toEqual({
      key: 'daily',
      limit: 1000,
      spent: 600n,
      available: 400n,
    });
  });

  it('given spend older than the window, when asked, then it does not count', () => {
    expect(cardSpendLimitStanding({ spendLimit: 1000, spendLimitDuration: 'DAILY', spend: spend([600, ago(25 * HOUR)]) }, now)).toMatchObject({ spent: 0n, available: 1000n });
  });

  it('given a return after spend, when asked, then the return frees what it undid (the authorization\'s rule)', () => {
    expect(cardSpendLimitStanding({ spendLimit: 1000, spendLimitDuration: 'FOREVER', spend: spend([900, ago(HOUR)], [-500, ago(HOUR / 2)]) }, now)).toMatchObject({
      key: 'forever',
      spent: 400n,
      available: 600n,
    });
  });

  it('given a limit lowered under what was spent, when asked, then nothing is available, never less', () => {
    expect(cardSpendLimitStanding({ spendLimit: 500, spendLimitDuration: 'MONTHLY', spend: spend([800, ago(HOUR)]) }, now)).toEqual({ key: 'monthly', limit: 500, spent: 800n, available: 0n });
  });

  it.each([
    ['no limit (0)', 0, 'MONTHLY'],
    ['a TRANSACTION limit', 1000, 'TRANSACTION'],
  ] as const)('given %s, when asked, then there is no window to stand in', (_case, spendLimit, spendLimitDuration) => {
    expect(cardSpendLimitStanding({ spendLimit, spendLimitDuration, spend: spend([600, ago(HOUR)]) }, now)).toBeNull();
  });

  it('names ANNUALLY annually', () => {
    expect(cardSpendLimitStanding({ spendLimit: 1000, spendLimitDuration: 'ANNUALLY', spend: spend() }, now)?.key).toBe('annually');
  });
});
