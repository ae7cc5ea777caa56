import { financialAccountStatus, financialAccountToken } from './financial-account';
import { financialEventType, financialTransactionStatus } from './financial-transaction';
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
