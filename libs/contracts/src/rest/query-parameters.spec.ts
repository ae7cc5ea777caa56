import { parseDateParameter, parseDayOrInstantParameter, parseInstantParameter, parseIntegerParameter } from './query-parameters';

describe('parseIntegerParameter', () => {
  it.each([
    ['1', 1],
    ['1000', 1000],
    ['007', 7],
  ])('reads %p as %p', (text, value) => {
    expect(parseIntegerParameter(text, 1, 1000)).toBe(value);
  });

  it.each(['0', '1001', '-1', '+1', '1.0', '1e3', ' 1', '1 ', '0x10', '', 'abc', '99999999999999999999', '9'.repeat(400)])('refuses %p', (text) => {
    expect(parseIntegerParameter(text, 1, 1000)).toBeNull();
  });

  it('refuses what is not one string (a repeated parameter is a list)', () => {
    expect(parseIntegerParameter(['1', '2'], 1, 1000)).toBeNull();
    expect(parseIntegerParameter(undefined, 1, 1000)).toBeNull();
  });
});

describe('parseDateParameter', () => {
  it.each([
    ['2026-11-22', '2026-11-22T00:00:00.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
    ['0001-01-01', '0001-01-01T00:00:00.000Z'],
    ['0099-12-31', '0099-12-31T00:00:00.000Z'],
    ['9999-12-31', '9999-12-31T00:00:00.000Z'],
  ])('reads %p as the UTC midnight %p', (text, iso) => {
    expect(parseDateParameter(text)?.toISOString()).toBe(iso);
  });

  it.each(['0000-01-01', '10000-01-01', '2025-02-29', '2026-02-30', '2026-04-31', '2026-13-01', '2026-00-01', '2026-01-00', '20260101', '2026-1-1', '2026-W01-1', '2026-001', '2026-01-01T00:00:00Z', ' 2026-01-01', ''])(
    'refuses %p',
    (text) => {
      expect(parseDateParameter(text)).toBeNull();
    },
  );
});

describe('parseInstantParameter', () => {
  it.each([
    ['2026-11-22T10:00:00Z', '2026-11-22T10:00:00.000Z'],
    ['2026-11-22T10:00:00.5Z', '2026-11-22T10:00:00.500Z'],
    ['2026-11-22T10:00:00.123456789Z', '2026-11-22T10:00:00.123Z'],
    ['2026-11-22T10:00:00+01:00', '2026-11-22T09:00:00.000Z'],
    ['2026-11-22T00:30:00-02:30', '2026-11-22T03:00:00.000Z'],
    ['2026-12-31T23:00:00-01:00', '2027-01-01T00:00:00.000Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
    ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
  ])('reads %p as %p', (text, iso) => {
    expect(parseInstantParameter(text)?.toISOString()).toBe(iso);
  });

  it.each([
    '2030-W01-1',
    '2030-W01-1T00:00:00Z',
    '20300101T000000Z',
    '2024-366',
    '2024-366T00:00:00Z',
    '2030-01-01',
    '2030-01-01T00:00Z',
    '2030-01-01T00:00:00',
    '2030-01-01 00:00:00Z',
    '2030-01-01t00:00:00z',
    '2030-01-01T24:00:00Z',
    '2030-01-01T23:60:00Z',
    '2030-12-31T23:59:60Z',
    '2030-02-29T00:00:00Z',
    '2030-01-01T00:00:00+24:00',
    '2030-01-01T00:00:00+01:60',
    '2030-01-01T00:00:00+0100',
    '2030-01-01T00:00:00.Z',
    '2030-01-01T00:00:00.1234567890Z',
    '0000-01-01T00:00:00Z',
    '0001-01-01T00:00:00+00:01',
    '9999-12-31T23:59:59-00:01',
    'yesterday',
    '',
  ])('refuses %p', (text) => {
    expect(parseInstantParameter(text)).toBeNull();
  });
});

describe('parseDayOrInstantParameter', () => {
  it.each([
    ['2026-11-22', '2026-11-22T00:00:00.000Z'],
    ['0001-01-01', '0001-01-01T00:00:00.000Z'],
    ['2026-11-22T10:00:00Z', '2026-11-22T10:00:00.000Z'],
    ['2026-11-22T10:00:00.123456Z', '2026-11-22T10:00:00.123Z'],
    ['2026-11-22T10:00:00+01:00', '2026-11-22T09:00:00.000Z'],
  ])('reads %p as %p: a day at its UTC midnight, an instant as is', (text, iso) => {
    expect(parseDayOrInstantParameter(text)?.toISOString()).toBe(iso);
  });

  it.each(['2026-02-30', '2026-11-22T10:00:00', '2026-11-22T24:00:00Z', '2026-11-22 10:00:00Z', '20261122', 'today', '', '0000-01-01', '2026-11-22T10:00Z'])('refuses %p, which neither form reads', (text) => {
    expect(parseDayOrInstantParameter(text)).toBeNull();
  });

  it('refuses what is not one string', () => {
    expect(parseDayOrInstantParameter(['2026-11-22', '2026-11-23'])).toBeNull();
    expect(parseDayOrInstantParameter(undefined)).toBeNull();
  });
});
