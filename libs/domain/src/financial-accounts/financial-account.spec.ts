import { financialAccountStatus, financialAccountToken } from './financial-account';
import { financialEventType, financialTransactionStatus } from './financial-transaction';
import { endedStatementPeriods, lastDayOf, monthOf, statementToken } from './statement-period';
import { otherProgramToken, programToken } from '../../test/fixtures';

describe("a program's financial account", () => {
  it('has a token derived from the program alone: the same every time, another for another program, shaped as every token (a version 4 UUID)', () => {
    const token = financialAccountToken(programToken, 'ISSUING');
    expect(financialAccountToken(programToken.toUpperCase(), 'ISSUING')).toBe(token);
    expect(financialAccountToken(otherProgramToken, 'ISSUING')).not.toBe(token);
    expect(token).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('is OPEN while the program is ACTIVE, SUSPENDED while it is PAUSED, CLOSED with it', () => {
    expect([financialAccountStatus('ACTIVE'), financialAccountStatus('PAUSED'), financialAccountStatus('CLOSED')]).toEqual(['OPEN', 'SUSPENDED', 'CLOSED']);
  });
});

describe('a card transaction as a financial transaction', () => {
  it("shows a cleared transaction SETTLED, a bounced one RETURNED, and a void as Lithic's AUTHORIZATION_REVERSAL", () => {
    expect(financialTransactionStatus('SETTLING')).toBe('SETTLED');
    expect(financialTransactionStatus('BOUNCED')).toBe('RETURNED');
    expect(financialTransactionStatus('PENDING')).toBe('PENDING');
    expect(financialEventType('VOID')).toBe('AUTHORIZATION_REVERSAL');
    expect(financialEventType('CLEARING')).toBe('CLEARING');
  });
});

describe('statement periods', () => {
  it('are the calendar months (UTC) from the account creation that have ended by now, each with a token of its own', () => {
    const periods = endedStatementPeriods(new Date('2026-10-20T10:00:00Z'), new Date('2027-01-01T00:00:00Z'));
    expect(periods.map((period) => [period.start.toISOString(), lastDayOf(period)])).toEqual([
      ['2026-10-01T00:00:00.000Z', '2026-10-31'],
      ['2026-11-01T00:00:00.000Z', '2026-11-30'],
      ['2026-12-01T00:00:00.000Z', '2026-12-31'],
    ]);
    expect(endedStatementPeriods(new Date('2026-10-20T10:00:00Z'), new Date('2026-10-31T23:59:59.999Z'))).toEqual([]);
    const account = financialAccountToken(programToken, 'ISSUING');
    expect(new Set(periods.map((period) => statementToken(account, period))).size).toBe(3);
    expect(statementToken(account, periods[0])).toBe(statementToken(account, monthOf(new Date('2026-10-05T00:00:00Z'))));
  });
});
