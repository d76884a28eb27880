/**
 * CSV as every CSV the app writes it: the paged reports (render.ts), the dashboard's download and the
 * streamed export (lib/reports/rows-export.ts), all through csvCell.
 */

/**
 * Spreadsheets run a cell as a formula when it starts with = + - @ or | (DDE), also after leading
 * whitespace, or with a tab, CR or LF; a site named "=HYPERLINK(…)" must open as text. OWASP's advice:
 * prefix such cells with a single quote. Numbers are not strings here, so -1.5 stays a number.
 */
const FORMULA_START = /^(?:[\t\r\n]|\s*[=+\-@|])/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One cell, RFC 4180: quoted (quotes doubled) when it holds a comma, quote or line break; null is empty.
 * Strings are formula-guarded first.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A header line and one line per row, each line ending in \n: every CSV table the app writes. */
export function csvTable(rows: readonly object[], columns: readonly string[]): string {
  const lines = [columns.map(csvCell).join(',')];
  for (const row of rows) {
    const values = row as Record<string, string | number | object | null | undefined>;
    // An object (an activity event's details) is one cell of JSON text.
    const cell = (v: string | number | object | null) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : v);
    lines.push(columns.map((c) => csvCell(cell(values[c] ?? null))).join(','));
  }
  return `${lines.join('\n')}\n`;
}
