import { isExpiredAt } from './card-values';

// The one expiry rule, read at creation (ExpiryInThePast) and at every authorization (INVALID_CARD_DETAILS).
describe('card expiry', () => {
  const expiry = { month: '12', year: '2026' };

  it('is valid through the last moment of its month, in UTC', () => {
    expect(isExpiredAt(expiry, new Date('2026-12-31T23:59:59.999Z'))).toBe(false);
    expect(isExpiredAt(expiry, new Date('2026-01-01T00:00:00.000Z'))).toBe(false);
  });

  it('has expired from the first moment of the next month, across a year boundary', () => {
    expect(isExpiredAt(expiry, new Date('2027-01-01T00:00:00.000Z'))).toBe(true);
    expect(isExpiredAt({ month: '01', year: '2027' }, new Date('2027-02-01T00:00:00.000Z'))).toBe(true);
    expect(isExpiredAt({ month: '01', year: '2027' }, new Date('2026-12-31T23:59:59.999Z'))).toBe(false);
  });

  it('compares the year before the month', () => {
    expect(isExpiredAt({ month: '12', year: '2025' }, new Date('2026-01-15T00:00:00.000Z'))).toBe(true);
    expect(isExpiredAt({ month: '01', year: '2028' }, new Date('2027-12-15T00:00:00.000Z'))).toBe(false);
  });
});
