/**
 * Imported text must be printable (lib/revenue-in/values.ts): PostgreSQL refuses NUL in text, and a control
 * character in a name or code is a broken file. Each is an error on its line and field, before any
 * database sees the row; the import then answers 400 (tests/integration/revenue-import-text.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { DEMO_IDS } from '@/db/seed-data';
import { type LineError, parseRevenueFile, type ParsedLine } from '@/lib/revenue-in/parse';

const TODAY = '2026-06-30';
const SKY = DEMO_IDS.sites.skyHopper;
const HEADER = 'day,siteId,siteName,country,impressions,clicks,adRequests,revenue,adUnitId';
const CELLS = { day: '2026-01-02', siteId: '', siteName: 'Sky', country: 'US', adUnitId: 'au-1' };

async function parse(text: string, format: 'csv' | 'ndjson'): Promise<ParsedLine[]> {
  const out: ParsedLine[] = [];
  for await (const item of parseRevenueFile([text], format, { today: TODAY })) out.push(item);
  return out;
}
const errorsOf = (results: ParsedLine[]): LineError[] => results.flatMap((r) => ('error' in r ? [r.error] : []));
const csvLine = (cells: Partial<typeof CELLS>) => {
  const c = { ...CELLS, ...cells };
  return `${c.day},${c.siteId},${c.siteName},${c.country},1,0,1,1,${c.adUnitId}`;
};

describe('control characters in imported text', () => {
  it.each([
    ['siteName', 'Sky\u0000Hopper', 'U+0000', 4],
    ['siteName', 'Sky\u0007', 'U+0007', 4],
    ['siteName', 'Sky\tHopper', 'U+0009', 4],
    ['siteName', 'Sky\u007f', 'U+007F', 4],
    ['siteName', 'Sky\u0085', 'U+0085', 4],
    ['adUnitId', 'au\u0000', 'U+0000', 3],
    ['country', 'U\u0000', 'U+0000', 2],
    ['day', '2026-01-02\u0000', 'U+0000', 11],
    ['siteId', `${SKY}\u001b`, 'U+001B', 37],
  ] as const)('CSV: %s %j is an error naming the character and where it is', async (field, value, code, at) => {
    const csv = [HEADER, csvLine({}), csvLine({ [field]: value }), csvLine({})].join('\n');
    const results = await parse(csv, 'csv');
    const shown = JSON.stringify(value); // as the message quotes it: escaped, so the answer stays readable
    expect(errorsOf(results)).toEqual([
      {
        line: 3,
        field,
        detail: `contains the control character ${code} at character ${at}; only printable text is allowed (${shown})`,
      },
    ]);
    expect(results.filter((r) => 'row' in r)).toHaveLength(2);
  });

  it('NDJSON: every text field is checked, one error per field, escaped in the message', async () => {
    const line = {
      day: '2026-01-02',
      siteName: 'Sky\u0000',
      country: 'US',
      impressions: 1,
      clicks: 0,
      adRequests: 1,
      revenue: 1,
      adUnitId: '\u0001x',
    };
    const ok = { ...line, siteName: 'Sky', adUnitId: null };
    const results = await parse([ok, line].map((o) => JSON.stringify(o)).join('\n'), 'ndjson');
    expect(errorsOf(results)).toEqual([
      {
        line: 2,
        field: 'siteName',
        detail: 'contains the control character U+0000 at character 4; only printable text is allowed ("Sky\\u0000")',
      },
      {
        line: 2,
        field: 'adUnitId',
        detail: 'contains the control character U+0001 at character 1; only printable text is allowed ("\\u0001x")',
      },
    ]);
  });

  it('refuses half of a surrogate pair (JSON can write one), and keeps whole pairs and other letters', async () => {
    const lines = ['\ud800', 'a\udc00', 'Sky 😀 Ω Ünïcode', '  Sky\t'].map((siteName) =>
      JSON.stringify({
        day: '2026-01-02',
        siteName,
        country: 'US',
        impressions: 1,
        clicks: 0,
        adRequests: 1,
        revenue: 1,
      }),
    );
    const results = await parse(lines.join('\n'), 'ndjson');
    expect(errorsOf(results)).toEqual([
      { line: 1, field: 'siteName', detail: 'is not valid Unicode text (half of a surrogate pair at character 1)' },
      { line: 2, field: 'siteName', detail: 'is not valid Unicode text (half of a surrogate pair at character 2)' },
    ]);
    // Whitespace around a value is trimmed as before, a tab included: only what is kept must be printable.
    expect(results.flatMap((r) => ('row' in r ? [r.row.siteName] : []))).toEqual(['Sky 😀 Ω Ünïcode', 'Sky']);
  });
});
