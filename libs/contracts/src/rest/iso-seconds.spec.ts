import { fundingTimestamp, isoSeconds } from './responses';

describe('the spec timestamp forms', () => {
  it('writes UTC to the second, dropping the milliseconds, for any year a Date holds', () => {
    expect(isoSeconds(new Date('2026-11-24T07:15:42.987Z'))).toBe('2026-11-24T07:15:42Z');
    expect(isoSeconds(new Date(0))).toBe('1970-01-01T00:00:00Z');
    expect(isoSeconds(new Date(8.64e15))).toBe('+275760-09-13T00:00:00Z');
    expect(isoSeconds(new Date(-62198755200000))).toBe('-000001-01-01T00:00:00Z');
  });

  it('writes funding sources with a space and no zone', () => {
    expect(fundingTimestamp(new Date('2026-11-24T07:15:42.987Z'))).toBe('2026-11-24 07:15:42');
  });
});
