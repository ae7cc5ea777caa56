import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, ValidateBy } from 'class-validator';

/**
 * One strict parser per kind of query parameter. Each turns the query string's text into the value the
 * handler uses (a number, a Date), or refuses it; whatever a parser accepts the code can use, so a
 * handler never parses by hand and an accepted value never becomes a 500 or a wrong 404 further on.
 * The decorators below pair each parser with its OpenAPI documentation and its one error message.
 */

/** The first and last day a date or an instant may name: four-digit years that PostgreSQL and Date both hold. */
export const MIN_YEAR = 1;
export const MAX_YEAR = 9999;

const DIGITS = /^[0-9]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** RFC 3339 date-time: extended format, seconds required, up to 9 fraction digits, Z or ±hh:mm. */
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;
const EARLIEST = utcDate(MIN_YEAR, 1, 1)!.getTime();
const LATEST = utcDate(MAX_YEAR, 12, 31)!.getTime() + 86_400_000 - 1;

/** Decimal digits only (no sign, exponent, fraction or blank), within [min, max]. */
export function parseIntegerParameter(text: unknown, min: number, max: number): number | null {
  if (typeof text !== 'string' || !DIGITS.test(text)) return null;
  const value = Number(text);
  return Number.isSafeInteger(value) && value >= min && value <= max ? value : null;
}

/** YYYY-MM-DD, a real calendar day with a year from {@link MIN_YEAR} to {@link MAX_YEAR}: its UTC midnight. */
export function parseDateParameter(text: unknown): Date | null {
  if (typeof text !== 'string') return null;
  const match = DATE.exec(text);
  return match ? utcDate(Number(match[1]), Number(match[2]), Number(match[3])) : null;
}

/**
 * An RFC 3339 instant, `YYYY-MM-DDThh:mm:ss[.fraction](Z|±hh:mm)`, within the years above once moved
 * to UTC. Other ISO 8601 forms (week dates, ordinal dates, the basic format, a date alone, a leap
 * second) are refused: Date cannot read some of them and would read others differently.
 */
export function parseInstantParameter(text: unknown): Date | null {
  if (typeof text !== 'string') return null;
  const match = INSTANT.exec(text);
  if (!match) return null;
  const [, year, month, day, hour, minute, second, fraction, zulu, sign, offsetHours, offsetMinutes] = match;
  const date = utcDate(Number(year), Number(month), Number(day));
  if (!date || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return null;
  if (!zulu && (Number(offsetHours) > 23 || Number(offsetMinutes) > 59)) return null;
  const offset = zulu ? 0 : (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes));
  const milliseconds = Number((fraction ?? '').padEnd(3, '0').slice(0, 3));
  const instant = date.getTime() + ((Number(hour) * 60 + Number(minute) - offset) * 60 + Number(second)) * 1000 + milliseconds;
  return instant >= EARLIEST && instant <= LATEST ? new Date(instant) : null;
}

/**
 * Either form Lithic's `begin`/`end` come in: a YYYY-MM-DD day is its UTC midnight, an RFC 3339
 * instant is used as is. Each form is read by its own strict parser above; nothing else is accepted.
 */
export function parseDayOrInstantParameter(text: unknown): Date | null {
  return parseDateParameter(text) ?? parseInstantParameter(text);
}

/** UTC midnight of a real calendar day, or null (2026-02-30, month 13, year 0). */
function utcDate(year: number, month: number, day: number): Date | null {
  if (year < MIN_YEAR || year > MAX_YEAR) return null;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day); // unlike Date.UTC, years 1 to 99 stay themselves
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? date : null;
}

/**
 * Runs `parse` on the query text during transformation and keeps the result; text it refuses stays
 * as it came, and the check that follows refuses it with `message` (`$property` is the parameter).
 */
function StrictParameter<T>(name: string, documentation: ApiPropertyOptions, parse: (text: unknown) => T | null, isParsed: (value: unknown) => boolean, message: string) {
  return applyDecorators(
    ApiPropertyOptional(documentation),
    IsOptional(),
    Transform(({ value }) => (value === undefined ? undefined : (parse(value) ?? value))),
    ValidateBy({ name, validator: { validate: isParsed, defaultMessage: () => message } }),
  );
}

export function IntegerParameter(options: { minimum: number; maximum: number; default?: number; description?: string }) {
  const { minimum, maximum } = options;
  return StrictParameter(
    'integerParameter',
    { type: 'integer', ...options },
    (text) => parseIntegerParameter(text, minimum, maximum),
    (value) => typeof value === 'number',
    `$property must be an integer from ${minimum} to ${maximum}`,
  );
}

export function DateParameter(options: { description?: string } = {}) {
  return StrictParameter(
    'dateParameter',
    { type: 'string', format: 'date', ...options },
    parseDateParameter,
    (value) => value instanceof Date,
    `$property must be a date written YYYY-MM-DD, a real day of a year from ${pad(MIN_YEAR)} to ${MAX_YEAR}`,
  );
}

export function InstantParameter(options: { description?: string } = {}) {
  return StrictParameter(
    'instantParameter',
    { type: 'string', format: 'date-time', ...options },
    parseInstantParameter,
    (value) => value instanceof Date,
    `$property must be an RFC 3339 date-time, YYYY-MM-DDThh:mm:ss with optional fraction and Z or ±hh:mm (e.g. 2026-11-22T10:00:00Z), between years ${pad(MIN_YEAR)} and ${MAX_YEAR}`,
  );
}

/** A day (its UTC midnight) or an instant; documented as the union of both formats. */
export function DayOrInstantParameter(options: { description?: string } = {}) {
  return StrictParameter(
    'dayOrInstantParameter',
    // type string: without it the property's Date type would document the whole parameter as a date-time.
    { type: 'string', oneOf: [{ type: 'string', format: 'date' }, { type: 'string', format: 'date-time' }], ...options },
    parseDayOrInstantParameter,
    (value) => value instanceof Date,
    `$property must be a date written YYYY-MM-DD or an RFC 3339 date-time such as 2026-11-22T10:00:00Z, between years ${pad(MIN_YEAR)} and ${MAX_YEAR}`,
  );
}

function pad(year: number): string {
  return String(year).padStart(4, '0');
}
