import { COUNTED_STATUSES } from '@ledger/domain';
import { sqlStringList } from './sql-literals';

describe('sqlStringList', () => {
  it('writes the domain constants as the literals a hand-written query would have', () => {
    expect(sqlStringList(COUNTED_STATUSES)).toBe(`'PENDING', 'SETTLING', 'SETTLED'`);
  });

  it.each([["O'Brien"], ['pending'], ['A, B'], ['']])('refuses %j, which is a value and must be bound', (value) => {
    expect(() => sqlStringList([value])).toThrow(/Not a constant/);
  });

  it('refuses an empty list, which would be invalid SQL', () => {
    expect(() => sqlStringList([])).toThrow(/at least one/);
  });
});
