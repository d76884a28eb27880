/**
 * The checks on the values of a revenue import file's line, column by column, and the row they make. Pure
 * functions: no I/O, no database.
 */
import { countryName } from '@/lib/shared/countries';
import { isDay } from '@/lib/query/dates';
import { isUuid } from '@/lib/query/site-ids';
import { quote, type ColumnName, type ImportRow, type Problem } from './columns';

/** A row as read: a CSV cell (string) or any JSON value per column; a column missing from the line is absent. */
export type Values = Partial<Record<ColumnName, unknown>>;

/** Checks every value of a line; one problem per bad field, so a line can be fixed in one go. */
export function toRow(line: number, values: Values, today: string): ImportRow | Problem[] {
  const problems: Problem[] = [];
  const checked: Record<string, unknown> = {};
  for (const field of FIELDS) {
    const result = CHECKS[field](values[field], today);
    if (result instanceof Bad) problems.push({ field, detail: result.detail });
    else checked[field] = result;
  }
  const v = checked as Checked;
  if (isBlank(values.siteId) && isBlank(values.siteName)) {
    // Name the column the file actually has, so the message points at the right cell.
    const field = 'siteName' in values && !('siteId' in values) ? 'siteName' : 'siteId';
    problems.push({ field, detail: 'a row needs a siteId or a siteName' });
  }
  if (v.impressions > v.adRequests) {
    problems.push({
      field: 'impressions',
      detail: `${v.impressions} is more than adRequests (${v.adRequests}); the fill rate must stay within 0..1`,
    });
  }
  if (problems.length > 0) return problems;
  return {
    line,
    siteId: v.siteId,
    siteName: v.siteName,
    day: v.day,
    country: v.country,
    impressions: v.impressions,
    clicks: v.clicks,
    adRequests: v.adRequests,
    revenueMicros: v.revenue,
    adUnitId: v.adUnitId,
  };
}

class Bad {
  constructor(readonly detail: string) {}
}

type Check<T> = (value: unknown, today: string) => T | Bad;

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

const required =
  <T>(check: Check<T>): Check<T> =>
  (v, today) =>
    isBlank(v) ? new Bad(v === undefined ? 'is missing' : `is required, got ${quote(v)}`) : check(v, today);

const optional =
  <T>(check: Check<T>): Check<T | null> =>
  (v, today) =>
    isBlank(v) ? null : check(v, today);

/**
 * Text columns take strings only: a JSON number where a name or code belongs is more likely a mix-up. And
 * printable text only, checked before anything reaches the database: PostgreSQL refuses NUL in text (the
 * whole COPY fails), and no name or code holds a control character or half of a surrogate pair.
 */
const text =
  <T>(check: (s: string, today: string) => T | Bad): Check<T> =>
  (v, today) => {
    if (typeof v !== 'string') return new Bad(`must be a string, got ${quote(v)}`);
    const s = v.trim();
    return unprintable(s) ?? check(s, today);
  };

/** C0 and C1 control characters and DEL (a tab or line break inside a value included). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function unprintable(s: string): Bad | null {
  const control = CONTROL.exec(s);
  if (control) {
    const code = `U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    return new Bad(
      `contains the control character ${code} at character ${control.index + 1}; only printable text is allowed (${quote(s)})`,
    );
  }
  const surrogate = LONE_SURROGATE.exec(s);
  if (surrogate)
    return new Bad(`is not valid Unicode text (half of a surrogate pair at character ${surrogate.index + 1})`);
  return null;
}

/**
 * A text check that remembers its answers: a file repeats the same few days, sites and countries on every line,
 * and checking one again (regular expressions, a calendar) cost more than the rest of the line.
 */
function remembered<T>(check: Check<T>): Check<T> {
  const answers = new Map<string, { today: string; answer: T | Bad }>();
  return (v, today) => {
    if (typeof v !== 'string') return check(v, today);
    const known = answers.get(v);
    if (known?.today === today) return known.answer;
    const answer = check(v, today);
    if (answers.size >= 10_000) answers.clear(); // bounded whatever the file holds
    answers.set(v, { today, answer });
    return answer;
  };
}

const maxLength = (n: number) => (s: string) =>
  s.length <= n ? s : new Bad(`is ${s.length} characters long; at most ${n} are allowed (${quote(s)})`);

// Built once: this runs for every line of files with millions of lines.
const CHECKS = {
  day: required(remembered(text(checkDay))),
  siteId: optional(remembered(text(checkUuid))),
  siteName: optional(remembered(text(maxLength(200)))),
  country: required(remembered(text(checkCountry))),
  impressions: required(checkCount),
  clicks: required(checkCount),
  adRequests: required(checkCount),
  revenue: required(checkRevenue),
  adUnitId: optional(text(maxLength(100))),
} satisfies Record<ColumnName, Check<unknown>>;

const FIELDS = Object.keys(CHECKS) as ColumnName[];

/** The values of a line whose checks all passed. */
type Checked = { [K in ColumnName]: Exclude<ReturnType<(typeof CHECKS)[K]>, Bad> };

// The API's export writes days as midnight timestamps; only those are accepted, other times would be guesses.
const DAY_TEXT = /^(\d{4}-\d{2}-\d{2})(?:T00:00:00(?:\.000)?Z)?$/;
const FIRST_DAY = '2000-01-01';

function checkDay(s: string, today: string): string | Bad {
  const day = DAY_TEXT.exec(s)?.[1];
  if (day === undefined) return new Bad(`must be a day as YYYY-MM-DD (UTC), got ${quote(s)}`);
  if (day < FIRST_DAY) return new Bad(`is before ${FIRST_DAY}, got ${quote(s)}`);
  if (!isDay(day)) return new Bad(`is not a real calendar date, got ${quote(s)}`);
  if (day > today) return new Bad(`is after today (${today}, UTC), got ${quote(s)}`);
  return day;
}

function checkUuid(s: string): string | Bad {
  if (isUuid(s)) return s.toLowerCase();
  return new Bad(`must be a uuid like 3f2504e0-4f89-41d3-9a0c-0305e82c3301, got ${quote(s)}`);
}

function checkCountry(s: string): string | Bad {
  if (countryName(s)) return s.toUpperCase();
  return new Bad(`must be an ISO 3166-1 alpha-2 country code like US, got ${quote(s)}`);
}

const MAX = Number.MAX_SAFE_INTEGER;
const DIGITS = /^\d+$/;
const MAX_USD = `${String(MAX).slice(0, -6)}.${String(MAX).slice(-6)}`;

/** A count: a JSON integer, or digits only (no sign, decimals or exponent, which a count never needs). */
function checkCount(v: unknown): number | Bad {
  if (typeof v === 'number') {
    if (v < 0) return new Bad(`must not be negative, got ${quote(v)}`);
    if (!Number.isInteger(v)) return new Bad(`must be a whole number, got ${quote(v)}`);
    return v <= MAX ? v : new Bad(`is too large (at most ${MAX}), got ${quote(v)}`);
  }
  if (typeof v !== 'string') return new Bad(`must be a whole number, got ${quote(v)}`);
  const s = v.trim();
  if (!DIGITS.test(s)) {
    if (/^-\d/.test(s)) return new Bad(`must not be negative, got ${quote(s)}`);
    return new Bad(`must be a whole number written with digits only, got ${quote(s)}`);
  }
  // Any digit string above MAX parses to at least MAX + 1, so this comparison is exact.
  const n = Number(s);
  return n <= MAX ? n : new Bad(`is too large (at most ${MAX}), got ${quote(s)}`);
}

/**
 * Revenue in micro-dollars, from the decimal text by string arithmetic: a float would turn 0.1 into
 * 0.1000000000000000055… and sums of many rows would drift. A JSON number is read through its shortest
 * round-trip text (String(n)), which is the number as the file wrote it, e.g. 0.1 → "0.1".
 */
function checkRevenue(v: unknown): number | Bad {
  if (typeof v === 'number') return v < 0 ? new Bad(`must not be negative, got ${quote(v)}`) : microsOf(String(v), v);
  if (typeof v !== 'string') return new Bad(`must be a decimal number of USD, got ${quote(v)}`);
  const s = v.trim();
  // Text must be a plain decimal: an exponent in a CSV cell is a spreadsheet artefact that has lost digits.
  if (!/^\d+(\.\d+)?$/.test(s)) {
    if (/^-\d/.test(s)) return new Bad(`must not be negative, got ${quote(s)}`);
    return new Bad(`must be a decimal number of USD like 12.5, got ${quote(s)}`);
  }
  return microsOf(s, s);
}

const DECIMAL = /^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i;
/** Up to 9 whole digits and 6 decimals: below 2^53 micros, so exact in a double, and most amounts look so. */
const SMALL_DECIMAL = /^(\d{1,9})(?:\.(\d{1,6}))?$/;

/** digits × 10^shift, where shift moves the decimal point 6 places right; exact in BigInt. */
function microsOf(text: string, shown: unknown): number | Bad {
  const small = SMALL_DECIMAL.exec(text);
  if (small) return Number(small[1]) * 1_000_000 + (small[2] ? Number(small[2].padEnd(6, '0')) : 0);
  const m = DECIMAL.exec(text);
  if (!m) return new Bad(`must be a decimal number of USD like 12.5, got ${quote(shown)}`);
  const [, whole, fraction = '', exponent = '0'] = m;
  const digits = (whole + fraction).replace(/^0+(?=\d)/, '');
  const shift = Number(exponent) - fraction.length + 6;
  let micros: bigint;
  if (shift >= 0) {
    // 10^21 micros is far past MAX; stop before building a huge string from a large exponent.
    micros = digits === '0' ? 0n : shift > 21 ? BigInt(MAX) + 1n : BigInt(digits + '0'.repeat(shift));
  } else {
    const cut = Math.max(0, digits.length + shift);
    // Trailing zeros past the 6th decimal are harmless (12.5000000); anything else is a fraction of a micro.
    if (!/^0*$/.test(digits.slice(cut))) {
      return new Bad(`has more than 6 decimals (the smallest amount is 0.000001 USD), got ${quote(shown)}`);
    }
    micros = BigInt(digits.slice(0, cut) || '0');
  }
  if (micros > BigInt(MAX)) return new Bad(`is too large (at most ${MAX_USD} USD), got ${quote(shown)}`);
  return Number(micros);
}
