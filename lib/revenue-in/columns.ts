/**
 * The columns of a revenue import file: their names and aliases, and how a CSV header or a JSON object's keys
 * map to them; shared by the CSV and NDJSON readers in ./parse.ts. The checks on their values are in
 * ./values.ts. Pure functions: no I/O, no database.
 */

/** One good line of an import file. */
export interface ImportRow {
  /** 1-based physical line number in the file (the CSV header is line 1); a multi-line record's first line. */
  line: number;
  /** Lower-cased uuid, when the file names sites by id. */
  siteId: string | null;
  /** When the file names sites by name (used with --create-sites / --owner). */
  siteName: string | null;
  /** YYYY-MM-DD (UTC). */
  day: string;
  /** Upper-case ISO 3166-1 alpha-2. */
  country: string;
  impressions: number;
  clicks: number;
  adRequests: number;
  /** Integer micro-dollars, parsed exactly from the decimal text (no floating point). */
  revenueMicros: number;
  adUnitId: string | null;
}

export type ColumnName =
  'day' | 'siteId' | 'siteName' | 'country' | 'impressions' | 'clicks' | 'adRequests' | 'revenue' | 'adUnitId';

export interface ImportColumn {
  name: ColumnName;
  /** Other accepted headers or keys, e.g. the names the API's own export uses. Matched case-insensitively. */
  aliases: readonly string[];
  required: 'always' | 'siteId or siteName' | 'optional';
  meaning: string;
}

export const IMPORT_COLUMNS: readonly ImportColumn[] = [
  {
    name: 'day',
    aliases: ['date', 'createdAt'],
    required: 'always',
    meaning: "UTC day, YYYY-MM-DD (or the export's YYYY-MM-DDT00:00:00Z), from 2000-01-01 to today",
  },
  { name: 'siteId', aliases: ['gameId'], required: 'siteId or siteName', meaning: "the site's id, a uuid" },
  {
    name: 'siteName',
    aliases: ['gameName'],
    required: 'siteId or siteName',
    meaning: "the site's name, up to 200 printable characters (no control characters, in any text column)",
  },
  { name: 'country', aliases: [], required: 'always', meaning: 'viewer country, ISO 3166-1 alpha-2 code, any case' },
  { name: 'impressions', aliases: [], required: 'always', meaning: 'ads shown, a whole number, at most adRequests' },
  { name: 'clicks', aliases: [], required: 'always', meaning: 'ad clicks, a whole number' },
  { name: 'adRequests', aliases: [], required: 'always', meaning: 'ads requested, a whole number' },
  {
    name: 'revenue',
    aliases: ['revenueAmount'],
    required: 'always',
    meaning: 'USD earned, a decimal with at most 6 decimals, e.g. 12, 12.5, 0.000001',
  },
  { name: 'adUnitId', aliases: [], required: 'optional', meaning: 'ad unit, up to 100 characters; blank for none' },
];

/** Written by the API's export but derived (cpm, fillRate) or owned by the server: skipped, so exports re-import. */
const IGNORED_COLUMNS = ['cpm', 'fillRate', 'updatedAt', 'userId'] as const;

const BY_LOWER_NAME = new Map<string, ColumnName | null>([
  ...IMPORT_COLUMNS.flatMap((c) => [c.name, ...c.aliases].map((n) => [n.toLowerCase(), c.name] as const)),
  ...IGNORED_COLUMNS.map((n) => [n.toLowerCase(), null] as const),
]);

export interface Problem {
  field: string;
  detail: string;
}
/** Per header cell or JSON key: the column it feeds, or null for an ignored one. */
export type Slots = (ColumnName | null)[];

/** Maps header cells or JSON keys to columns; unknown and repeated names are problems. */
export function mapColumns(names: readonly string[]): { slots: Slots; problems: Problem[] } {
  const problems: Problem[] = [];
  const seen = new Map<ColumnName, string>();
  const slots = names.map((raw, i): ColumnName | null => {
    const name = raw.trim();
    if (name === '') {
      problems.push({ field: `column ${i + 1}`, detail: 'has no name' });
      return null;
    }
    const column = BY_LOWER_NAME.get(name.toLowerCase());
    if (column === undefined) {
      problems.push({
        field: name,
        detail: `unknown column ${quote(name)}; expected ${IMPORT_COLUMNS.map((c) => c.name).join(', ')} (or an alias)`,
      });
      return null;
    }
    if (column === null) return null;
    const earlier = seen.get(column);
    if (earlier !== undefined) {
      problems.push({ field: column, detail: `is given twice, as ${quote(earlier)} and ${quote(name)}` });
      return null;
    }
    seen.set(column, name);
    return column;
  });
  return { slots, problems };
}

/** Required columns a CSV header lacks. */
export function missingColumns(slots: Slots): Problem[] {
  const present = new Set(slots);
  const problems: Problem[] = IMPORT_COLUMNS.filter((c) => c.required === 'always' && !present.has(c.name)).map(
    (c) => ({ field: c.name, detail: `the header has no ${describe(c)} column` }),
  );
  if (!present.has('siteId') && !present.has('siteName')) {
    problems.unshift({
      field: 'siteId',
      detail: 'the header needs a siteId (or gameId) or a siteName (or gameName) column',
    });
  }
  return problems;
}

const describe = (c: ImportColumn) => (c.aliases.length ? `${c.name} (or ${c.aliases.join(' or ')})` : c.name);

/** A value for a message: strings quoted, JSON values as JSON, long ones cut so a message stays readable. */
export function quote(value: unknown): string {
  const s = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  const cut = s.length > 40 ? `${s.slice(0, 40)}…` : s;
  return typeof value === 'string' ? JSON.stringify(cut) : cut;
}
