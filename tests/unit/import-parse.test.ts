import { createReadStream } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEMO_IDS } from '@/db/seed-data';
import {
  formatFromName,
  IMPORT_COLUMNS,
  parseRevenueFile,
  type ImportFormat,
  type ImportRow,
  type LineError,
  type ParsedLine,
} from '@/lib/revenue-in/parse';
import { addDays, todayUtc } from '@/lib/query/dates';
import { rowFields } from '@/lib/reports/fields';

const TODAY = '2026-06-30';
const SKY = DEMO_IDS.sites.skyHopper;
const MAX = Number.MAX_SAFE_INTEGER;

async function* chunks(...parts: (string | Uint8Array)[]): AsyncGenerator<string | Uint8Array> {
  yield* parts;
}

async function parseAll(
  input: string | AsyncIterable<string | Uint8Array>,
  format: ImportFormat,
  today = TODAY,
): Promise<ParsedLine[]> {
  const out: ParsedLine[] = [];
  for await (const item of parseRevenueFile(typeof input === 'string' ? chunks(input) : input, format, { today })) {
    out.push(item);
  }
  return out;
}

const rowsOf = (results: ParsedLine[]): ImportRow[] => results.flatMap((r) => ('row' in r ? [r.row] : []));
const errorsOf = (results: ParsedLine[]): LineError[] => results.flatMap((r) => ('error' in r ? [r.error] : []));
const where = (results: ParsedLine[]) => errorsOf(results).map((e) => [e.line, e.field]);

/** A valid CSV line's cells; tests override one or two. */
const GOOD = {
  day: '2026-01-02',
  siteId: SKY,
  country: 'US',
  impressions: '10',
  clicks: '1',
  adRequests: '20',
  revenue: '1.5',
};
const csvOf = (...rows: Partial<Record<keyof typeof GOOD, string>>[]) =>
  [Object.keys(GOOD).join(','), ...rows.map((r) => Object.values({ ...GOOD, ...r }).join(','))].join('\n') + '\n';

const GOOD_JSON = {
  day: '2026-01-02',
  siteId: SKY,
  country: 'US',
  impressions: 10,
  clicks: 1,
  adRequests: 20,
  revenue: 1.5,
};
const ndjsonOf = (...rows: Record<string, unknown>[]) =>
  rows.map((r) => JSON.stringify({ ...GOOD_JSON, ...r })).join('\n') + '\n';

const row = (over: Partial<ImportRow>): ImportRow => ({
  line: 2,
  siteId: SKY,
  siteName: null,
  day: '2026-01-02',
  country: 'US',
  impressions: 10,
  clicks: 1,
  adRequests: 20,
  revenueMicros: 1_500_000,
  adUnitId: null,
  ...over,
});

describe('valid files', () => {
  it('reads CSV with aliases, any header case and any value case', async () => {
    const csv = [
      'DATE,GameID,gameName,COUNTRY,Impressions,clicks,ADREQUESTS,revenueamount,AdUnitId',
      `2026-01-02T00:00:00Z,${SKY.toUpperCase()},Sky Hopper,de,10,1,20,12.5,au-1`,
      `2026-01-03T00:00:00.000Z,,Word Garden, gb ,0,0,0,0,`,
    ].join('\n');
    expect(await parseAll(csv, 'csv')).toEqual([
      { row: row({ siteName: 'Sky Hopper', country: 'DE', revenueMicros: 12_500_000, adUnitId: 'au-1' }) },
      {
        row: row({
          line: 3,
          siteId: null,
          siteName: 'Word Garden',
          day: '2026-01-03',
          country: 'GB',
          impressions: 0,
          clicks: 0,
          adRequests: 0,
          revenueMicros: 0,
        }),
      },
    ]);
  });

  it('reads NDJSON with aliases, any key case, digit strings and nulls', async () => {
    const line = JSON.stringify({
      CreatedAt: '2026-01-02T00:00:00.000Z',
      GAMEID: SKY,
      country: 'gb',
      Impressions: '10',
      clicks: 1,
      adrequests: 20,
      RevenueAmount: 0.1,
      adUnitId: null,
      gameName: null,
    });
    expect(await parseAll(`${line}\n`, 'ndjson')).toEqual([
      { row: row({ line: 1, country: 'GB', revenueMicros: 100_000 }) },
    ]);
  });

  it('reads the sample files in docs/samples to the same rows', async () => {
    const today = '2026-11-01';
    const csv = await parseAll(createReadStream('docs/samples/revenue-sample.csv'), 'csv', today);
    const ndjson = await parseAll(createReadStream('docs/samples/revenue-sample.ndjson'), 'ndjson', today);
    expect(errorsOf(csv)).toEqual([]);
    expect(errorsOf(ndjson)).toEqual([]);
    expect(rowsOf(csv)).toHaveLength(11);
    // The CSV header is line 1, so its rows are one line further down than the NDJSON ones.
    expect(rowsOf(csv).map((r) => ({ ...r, line: r.line - 1 }))).toEqual(rowsOf(ndjson));
    expect(rowsOf(csv)[0]).toMatchObject({ siteId: SKY, country: 'US', revenueMicros: 1_207_913_400 });
  });

  it('gives the same result however the bytes are chunked (BOM and UTF-8 split across chunks)', async () => {
    const text = `\uFEFFday,siteName,country,impressions,clicks,adRequests,revenue\r\n2026-01-02,Café Ünïcode,US,1,0,2,0.5\r\n`;
    const whole = await parseAll(text, 'csv');
    expect(rowsOf(whole)).toEqual([
      row({ siteId: null, siteName: 'Café Ünïcode', impressions: 1, clicks: 0, adRequests: 2, revenueMicros: 500_000 }),
    ]);
    const bytes = new TextEncoder().encode(text);
    for (const size of [1, 2, 3, 7]) {
      const parts: Uint8Array[] = [];
      for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
      expect(await parseAll(chunks(...parts), 'csv')).toEqual(whole);
    }
  });

  it('re-imports the API export: derived and owned columns are ignored, in CSV and NDJSON', async () => {
    const exported = {
      impressions: 10,
      clicks: 1,
      adRequests: 20,
      cpm: 150,
      revenueAmount: 1.5,
      fillRate: 0.5,
      country: 'US',
      createdAt: '2026-01-02T00:00:00.000Z',
      updatedAt: '2026-01-03T04:05:06.789Z',
      gameId: SKY,
      userId: DEMO_IDS.users.demo,
      adUnitId: 'au-1',
      gameName: 'Sky Hopper',
    };
    // The export's own column list, so that a new export column shows up here.
    const columns = rowFields.map((f) => f.name);
    expect(new Set(columns)).toEqual(new Set(Object.keys(exported)));
    const csv = `${columns.join(',')}\n${columns.map((c) => exported[c as keyof typeof exported]).join(',')}\n`;
    const expected = row({ siteName: 'Sky Hopper', adUnitId: 'au-1' });
    expect(await parseAll(csv, 'csv')).toEqual([{ row: expected }]);
    expect(await parseAll(`${JSON.stringify(exported)}\n`, 'ndjson')).toEqual([{ row: { ...expected, line: 1 } }]);
  });

  it('accepts every column name and alias of IMPORT_COLUMNS as a header', async () => {
    const values: Record<string, string> = { ...GOOD, siteName: 'Sky Hopper', adUnitId: 'au-1' };
    for (const pick of [0, 1, 2]) {
      const names = IMPORT_COLUMNS.map((c) => [c.name, ...c.aliases][pick] ?? c.name);
      const csv = `${names.map((n) => n.toUpperCase()).join(',')}\n${IMPORT_COLUMNS.map((c) => values[c.name]).join(',')}\n`;
      expect(errorsOf(await parseAll(csv, 'csv'))).toEqual([]);
    }
  });

  it('requires exactly the columns IMPORT_COLUMNS marks as always required', async () => {
    const all = [...Object.keys(GOOD), 'siteName', 'adUnitId'];
    for (const column of IMPORT_COLUMNS) {
      const header = all.filter((c) => c !== column.name);
      const csv = `${header.join(',')}\n${header.map((c) => ({ ...GOOD, siteName: 'x', adUnitId: '' })[c]).join(',')}\n`;
      const errors = errorsOf(await parseAll(csv, 'csv'));
      expect(errors.map((e) => e.field)).toEqual(column.required === 'always' ? [column.name] : []);
    }
  });
});

describe('revenue in micro-dollars, without floating point', () => {
  it.each([
    ['0.1', 100_000],
    ['0.000001', 1],
    ['12345678.123456', 12_345_678_123_456],
    ['12', 12_000_000],
    ['12.5', 12_500_000],
    ['0', 0],
    ['1.005', 1_005_000],
    ['8.2', 8_200_000],
    ['16.06', 16_060_000],
    ['007.50', 7_500_000],
    ['1.5000000', 1_500_000],
    ['9007199254.740991', MAX],
  ])('CSV %s → %d', async (text, micros) => {
    expect(rowsOf(await parseAll(csvOf({ revenue: text }), 'csv'))).toEqual([row({ revenueMicros: micros })]);
  });

  it.each([
    ['1e-7', 'must be a decimal number of USD like 12.5, got "1e-7"'],
    ['1.2345678', 'has more than 6 decimals (the smallest amount is 0.000001 USD), got "1.2345678"'],
    ['-1', 'must not be negative, got "-1"'],
    ['-0.5', 'must not be negative, got "-0.5"'],
    ['9007199254.740992', 'is too large (at most 9007199254.740991 USD), got "9007199254.740992"'],
    ['12.', 'must be a decimal number of USD like 12.5, got "12."'],
    ['$12', 'must be a decimal number of USD like 12.5, got "$12"'],
    ['"1,5"', 'must be a decimal number of USD like 12.5, got "1,5"'],
    ['', 'is required, got ""'],
  ])('CSV rejects %s', async (text, detail) => {
    expect(errorsOf(await parseAll(csvOf({ revenue: text }), 'csv'))).toEqual([{ line: 2, field: 'revenue', detail }]);
  });

  it.each([
    [0.1, 100_000],
    [0.000001, 1],
    [12345678.123456, 12_345_678_123_456],
    [1.005, 1_005_000],
    [16.06, 16_060_000],
    [1.5e-5, 15],
    [0, 0],
    ['12.5', 12_500_000],
  ])('NDJSON %j → %d', async (value, micros) => {
    const results = await parseAll(ndjsonOf({ revenue: value }), 'ndjson');
    expect(rowsOf(results)).toEqual([row({ line: 1, revenueMicros: micros })]);
  });

  it.each([
    [1e-7, 'has more than 6 decimals (the smallest amount is 0.000001 USD), got 1e-7'],
    [2.5e-7, 'has more than 6 decimals (the smallest amount is 0.000001 USD), got 2.5e-7'],
    [1.2345678, 'has more than 6 decimals (the smallest amount is 0.000001 USD), got 1.2345678'],
    [-1, 'must not be negative, got -1'],
    [1e21, 'is too large (at most 9007199254.740991 USD), got 1e+21'],
    ['1e-7', 'must be a decimal number of USD like 12.5, got "1e-7"'],
    [true, 'must be a decimal number of USD, got true'],
    [null, 'is required, got null'],
  ])('NDJSON rejects %j', async (value, detail) => {
    expect(errorsOf(await parseAll(ndjsonOf({ revenue: value }), 'ndjson'))).toEqual([
      { line: 1, field: 'revenue', detail },
    ]);
  });

  it('reads back every amount the API exports as a JSON number (micros / 1e6) exactly', async () => {
    const micros = [1, 7, 999_999, 1_000_001, 4_350_000, 1_005_000, 123_456_789, 10 ** 15 - 1];
    for (let x = 12345, i = 0; i < 200; i++) micros.push((x = (x * 48271) % 2147483647) * 465_661);
    const text = micros.map((m) => JSON.stringify({ ...GOOD_JSON, revenue: m / 1e6, impressions: 0 })).join('\n');
    expect(rowsOf(await parseAll(text, 'ndjson')).map((r) => r.revenueMicros)).toEqual(micros);
  });
});

describe('counts', () => {
  it.each([
    ['0', 0],
    ['007', 7],
    ['9007199254740991', MAX],
  ])('CSV clicks %s → %d', async (text, n) => {
    expect(rowsOf(await parseAll(csvOf({ clicks: text }), 'csv'))).toEqual([row({ clicks: n })]);
  });

  it.each([
    ['-1', 'must not be negative, got "-1"'],
    ['1.5', 'must be a whole number written with digits only, got "1.5"'],
    ['1e3', 'must be a whole number written with digits only, got "1e3"'],
    ['+3', 'must be a whole number written with digits only, got "+3"'],
    ['1 000', 'must be a whole number written with digits only, got "1 000"'],
    ['9007199254740992', 'is too large (at most 9007199254740991), got "9007199254740992"'],
    [' ', 'is required, got " "'],
  ])('CSV rejects clicks %j', async (text, detail) => {
    expect(errorsOf(await parseAll(csvOf({ clicks: text }), 'csv'))).toEqual([{ line: 2, field: 'clicks', detail }]);
  });

  it.each([
    ['12', 12],
    [1e3, 1000],
    [0, 0],
  ])('NDJSON clicks %j → %d', async (value, n) => {
    expect(rowsOf(await parseAll(ndjsonOf({ clicks: value }), 'ndjson'))).toEqual([row({ line: 1, clicks: n })]);
  });

  it.each([
    [1.5, 'must be a whole number, got 1.5'],
    [-1, 'must not be negative, got -1'],
    ['-1', 'must not be negative, got "-1"'],
    [true, 'must be a whole number, got true'],
    [9007199254740992, 'is too large (at most 9007199254740991), got 9007199254740992'],
    [undefined, 'is missing'],
  ])('NDJSON rejects clicks %j', async (value, detail) => {
    expect(errorsOf(await parseAll(ndjsonOf({ clicks: value }), 'ndjson'))).toEqual([
      { line: 1, field: 'clicks', detail },
    ]);
  });
});

describe('bad values give one error per field, on the right line', () => {
  it.each([
    [{ day: '2026-13-01' }, 'day', 'is not a real calendar date, got "2026-13-01"'],
    [{ day: '2026-02-29' }, 'day', 'is not a real calendar date, got "2026-02-29"'],
    [{ day: '1999-12-31' }, 'day', 'is before 2000-01-01, got "1999-12-31"'],
    [{ day: '2026-07-01' }, 'day', 'is after today (2026-06-30, UTC), got "2026-07-01"'],
    [{ day: '2026-01-02T05:00:00Z' }, 'day', 'must be a day as YYYY-MM-DD (UTC), got "2026-01-02T05:00:00Z"'],
    [{ day: '02/01/2026' }, 'day', 'must be a day as YYYY-MM-DD (UTC), got "02/01/2026"'],
    [{ country: 'ZZ' }, 'country', 'must be an ISO 3166-1 alpha-2 country code like US, got "ZZ"'],
    [{ country: 'USA' }, 'country', 'must be an ISO 3166-1 alpha-2 country code like US, got "USA"'],
    [{ country: 'UK' }, 'country', 'must be an ISO 3166-1 alpha-2 country code like US, got "UK"'],
    [{ siteId: 'not-a-uuid' }, 'siteId', 'must be a uuid like 3f2504e0-4f89-41d3-9a0c-0305e82c3301, got "not-a-uuid"'],
    [{ siteId: '' }, 'siteId', 'a row needs a siteId or a siteName'],
    [{ impressions: '21' }, 'impressions', '21 is more than adRequests (20); the fill rate must stay within 0..1'],
  ])('CSV %j → %s', async (over, field, detail) => {
    const results = await parseAll(csvOf({}, over, {}), 'csv');
    expect(errorsOf(results)).toEqual([{ line: 3, field, detail }]);
    expect(rowsOf(results).map((r) => r.line)).toEqual([2, 4]);
  });

  it('checks the lengths of siteName and adUnitId, and cuts long values in messages', async () => {
    const csv = `day,siteId,siteName,country,impressions,clicks,adRequests,revenue,adUnitId
2026-01-02,,${'n'.repeat(200)},US,1,1,1,1,${'a'.repeat(100)}
2026-01-02,,${'n'.repeat(201)},US,1,1,1,1,${'a'.repeat(101)}
2026-01-02,${'x'.repeat(500)},,US,1,1,1,1,
`;
    const results = await parseAll(csv, 'csv');
    expect(rowsOf(results).map((r) => r.line)).toEqual([2]);
    expect(where(results)).toEqual([
      [3, 'siteName'],
      [3, 'adUnitId'],
      [4, 'siteId'],
    ]);
    const [name, unit, id] = errorsOf(results);
    expect(name.detail).toBe(`is 201 characters long; at most 200 are allowed ("${'n'.repeat(40)}…")`);
    expect(unit.detail).toMatch(/^is 101 characters long; at most 100 are allowed/);
    expect(id.detail).toBe(`must be a uuid like 3f2504e0-4f89-41d3-9a0c-0305e82c3301, got "${'x'.repeat(40)}…"`);
  });

  it('reports every bad field of a line, in column order', async () => {
    const results = await parseAll(csvOf({ day: 'x', country: 'x', clicks: 'x', revenue: 'x' }), 'csv');
    expect(where(results)).toEqual([
      [2, 'day'],
      [2, 'country'],
      [2, 'clicks'],
      [2, 'revenue'],
    ]);
  });

  it('keeps both siteId and siteName when both are given, and blames siteName when it is the only site column', async () => {
    const both = `day,siteId,siteName,country,impressions,clicks,adRequests,revenue\n2026-01-02,${SKY},Sky,US,10,1,20,1.5\n`;
    expect(rowsOf(await parseAll(both, 'csv'))).toEqual([row({ siteName: 'Sky' })]);
    const nameOnly = 'day,siteName,country,impressions,clicks,adRequests,revenue\n2026-01-02,,US,10,1,20,1.5\n';
    expect(where(await parseAll(nameOnly, 'csv'))).toEqual([[2, 'siteName']]);
  });

  it('judges days against options.today, defaulting to today (UTC)', async () => {
    const today = todayUtc();
    const csv = csvOf({ day: today }, { day: addDays(today, 1) });
    const results: ParsedLine[] = [];
    for await (const r of parseRevenueFile(chunks(csv), 'csv')) results.push(r);
    expect(where(results)).toEqual([[3, 'day']]);
    expect(() => parseRevenueFile(chunks(csv), 'csv', { today: '2026-02-30' })).toThrow(RangeError);
    expect(() => parseRevenueFile(chunks(csv), 'xml' as ImportFormat)).toThrow(RangeError);
  });
});

describe('CSV structure', () => {
  const HEADER = 'day,siteName,country,impressions,clicks,adRequests,revenue';

  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
  ])('counts physical lines across quoted multi-line cells (%s)', async (_, nl) => {
    // A line break is a control character, so no text value may hold one: each such record is an error on
    // its first line, and the lines after it keep their numbers.
    const csv = [
      HEADER, // 1
      `2026-01-02,"Sky${nl}Hopper${nl}Deluxe",US,1,0,1,1`, // 2-4
      '', // 5
      '2026-01-02,Plain,US,1,0,1,1', // 6
      `2026-01-02,"Two${nl}Lines",ZZ,1,0,1,1`, // 7-8
      '2026-01-02,Plain,XX,1,0,1,1', // 9
    ].join(nl);
    const results = await parseAll(csv, 'csv');
    expect(rowsOf(results).map((r) => [r.line, r.siteName])).toEqual([[6, 'Plain']]);
    expect(where(results)).toEqual([
      [2, 'siteName'],
      [7, 'siteName'],
      [7, 'country'],
      [9, 'country'],
    ]);
    expect(errorsOf(results)[0].detail).toContain(JSON.stringify(`Sky${nl}Hopper${nl}Deluxe`));
  });

  it('skips blank and separator-only lines, and strips a BOM and CRLF', async () => {
    const csv = `\uFEFF${HEADER}\r\n\r\n,,,,,,\r\n2026-01-02,Sky,US,1,0,1,0.5\r\n   \r\n2026-01-02,Sky,US,1,0,1,x\r\n`;
    const results = await parseAll(csv, 'csv');
    expect(rowsOf(results).map((r) => [r.line, r.revenueMicros])).toEqual([[4, 500_000]]);
    expect(errorsOf(results)).toEqual([
      { line: 6, field: 'revenue', detail: 'must be a decimal number of USD like 12.5, got "x"' },
    ]);
  });

  it('reports a row with the wrong number of cells on its line and goes on', async () => {
    const csv = `${HEADER}\n2026-01-02,Sky,US,1,0,1\n2026-01-02,Sky,US,1,0,1,1,extra\n2026-01-02,Sky,US,1,0,1,1\n`;
    const results = await parseAll(csv, 'csv');
    expect(errorsOf(results)).toEqual([
      { line: 2, field: 'line', detail: 'has 6 cells; the header has 7' },
      { line: 3, field: 'line', detail: 'has 8 cells; the header has 7' },
    ]);
    expect(rowsOf(results).map((r) => r.line)).toEqual([4]);
  });

  it('reads escaped quotes and commas in a quoted cell across lines, even at a line end', async () => {
    const csv = `${HEADER}\n2026-01-02,"Say ""hi,""\nthen ""bye""",US,1,0,1,1\n2026-01-02,"a,b",US,1,0,1,1\n`;
    const results = await parseAll(csv, 'csv');
    expect(rowsOf(results).map((r) => [r.line, r.siteName])).toEqual([[4, 'a,b']]);
    // The line break makes the name unprintable; the message shows the cell as read, quotes and all.
    expect(errorsOf(results)).toEqual([
      {
        line: 2,
        field: 'siteName',
        detail: `contains the control character U+000A at character 10; only printable text is allowed (${JSON.stringify('Say "hi,"\nthen "bye"')})`,
      },
    ]);
  });

  it('takes a stray quote inside a cell as text', async () => {
    const csv = `${HEADER}\n2026-01-02,Sky 5"5,US,1,0,1,1\n`;
    expect(rowsOf(await parseAll(csv, 'csv')).map((r) => r.siteName)).toEqual(['Sky 5"5']);
  });

  it('ends at a quote that is never closed, after the rows before it', async () => {
    const csv = `${HEADER}\n2026-01-02,Sky,US,1,0,1,1\n2026-01-02,"Sky,US,1,0,1,1\n2026-01-02,Sky,US,1,0,1,1\n`;
    expect(await parseAll(csv, 'csv')).toEqual([
      {
        row: row({ siteId: null, siteName: 'Sky', impressions: 1, clicks: 0, adRequests: 1, revenueMicros: 1_000_000 }),
      },
      {
        error: {
          line: 3,
          field: 'line',
          detail: 'opens a quoted cell that is never closed; the rest of the file was not read',
        },
      },
    ]);
  });

  /** An endless source: finishing at all proves the parser stops reading instead of buffering. */
  async function* endless(prefix: string, unit: string, pulled: { n: number }) {
    yield prefix;
    for (;;) {
      pulled.n++;
      yield unit.repeat(Math.ceil(16_384 / unit.length));
    }
  }

  it.each([
    ['one endless line', 'x'],
    ['endless separators (no cell grows)', ','],
    ['an endless quoted cell over many short lines', 'abc\n'],
    ['an endless quoted cell of escaped quotes', '""\n'],
  ])('stops with an error on %s', async (_, unit) => {
    const pulled = { n: 0 };
    const start = unit.endsWith('\n') ? '"' : '';
    const results = await parseAll(endless(`${HEADER}\n2026-01-02,Sky,US,1,0,1,1\n${start}`, unit, pulled), 'csv');
    expect(rowsOf(results).map((r) => r.line)).toEqual([2]);
    expect(errorsOf(results)).toEqual([
      { line: 3, field: 'line', detail: 'is longer than 64 KiB (65536 bytes); the rest of the file was not read' },
    ]);
    expect(pulled.n).toBeLessThan(10);
  });
});

describe('CSV header', () => {
  const rows = '2026-01-02,x,US,1,0,1,1\n'.repeat(3);

  it('reports a missing column once, on line 1, and reads no further', async () => {
    const results = await parseAll(`day,siteId,country,clicks,adRequests,revenue\n${rows}`, 'csv');
    expect(results).toEqual([
      { error: { line: 1, field: 'impressions', detail: 'the header has no impressions column' } },
    ]);
  });

  it('needs a siteId or a siteName column', async () => {
    expect(await parseAll(`day,country,impressions,clicks,adRequests,revenue\n${rows}`, 'csv')).toEqual([
      {
        error: {
          line: 1,
          field: 'siteId',
          detail: 'the header needs a siteId (or gameId) or a siteName (or gameName) column',
        },
      },
    ]);
  });

  it('rejects unknown columns, so that a typo cannot pass silently', async () => {
    const typo = await parseAll(`day,siteId,country,impresions,clicks,adRequests,revenue\n${rows}`, 'csv');
    expect(where(typo)).toEqual([
      [1, 'impresions'],
      [1, 'impressions'],
    ]);
    expect(errorsOf(typo)[0].detail).toMatch(/^unknown column "impresions"; expected day, siteId, siteName/);
    const extra = await parseAll(`day,siteId,country,impressions,clicks,adRequests,revenue,notes\n${rows}`, 'csv');
    expect(where(extra)).toEqual([[1, 'notes']]);
    const unnamed = await parseAll(`day,siteId,country,impressions,clicks,adRequests,revenue,\n${rows}`, 'csv');
    expect(errorsOf(unnamed)).toEqual([{ line: 1, field: 'column 8', detail: 'has no name' }]);
  });

  it('rejects a column given twice under different names', async () => {
    const results = await parseAll(`day,siteId,Date,country,impressions,clicks,adRequests,revenue\n${rows}`, 'csv');
    expect(errorsOf(results)).toEqual([{ line: 1, field: 'day', detail: 'is given twice, as "day" and "Date"' }]);
  });

  it('reports an empty file, and accepts a header without rows', async () => {
    expect(where(await parseAll('', 'csv'))).toEqual([[1, 'header']]);
    expect(where(await parseAll('\n\r\n', 'csv'))).toEqual([[1, 'header']]);
    expect(await parseAll(`${Object.keys(GOOD).join(',')}\n`, 'csv')).toEqual([]);
  });
});

describe('NDJSON lines', () => {
  it('reports each unreadable or incomplete line and goes on', async () => {
    const text = [
      JSON.stringify(GOOD_JSON), // 1
      '', // 2
      '   ', // 3
      '{bad json', // 4
      '[1,2]', // 5
      'null', // 6
      JSON.stringify({ ...GOOD_JSON, notes: 'hi', Day: '2026-01-03' }), // 7
      JSON.stringify({ ...GOOD_JSON, country: undefined, siteId: undefined }), // 8
      JSON.stringify(GOOD_JSON), // 9 (no final newline)
    ].join('\n');
    const results = await parseAll(text, 'ndjson');
    expect(rowsOf(results).map((r) => r.line)).toEqual([1, 9]);
    expect(errorsOf(results)).toEqual([
      { line: 4, field: 'line', detail: 'is not valid JSON: "{bad json"' },
      { line: 5, field: 'line', detail: 'must be a JSON object, got "[1,2]"' },
      { line: 6, field: 'line', detail: 'must be a JSON object, got "null"' },
      { line: 7, field: 'notes', detail: expect.stringMatching(/^unknown column "notes"/) },
      { line: 7, field: 'day', detail: 'is given twice, as "day" and "Day"' },
      { line: 8, field: 'country', detail: 'is missing' },
      { line: 8, field: 'siteId', detail: 'a row needs a siteId or a siteName' },
    ]);
  });

  it('strips a BOM and CRLF', async () => {
    const text = `\uFEFF${JSON.stringify(GOOD_JSON)}\r\n\r\n${JSON.stringify(GOOD_JSON)}\r\n`;
    expect(rowsOf(await parseAll(text, 'ndjson')).map((r) => r.line)).toEqual([1, 3]);
  });

  it('skips a line over 64 KiB with an error, and one that is not UTF-8', async () => {
    const long = JSON.stringify({ ...GOOD_JSON, siteName: 'n'.repeat(70_000) });
    const bad = new Uint8Array([0x7b, 0xff, 0xfe, 0x7d, 0x0a]);
    const good = `${JSON.stringify(GOOD_JSON)}\n`;
    const results = await parseAll(chunks(`${long.slice(0, 30_000)}`, long.slice(30_000), `\n`, bad, good), 'ndjson');
    expect(errorsOf(results)).toEqual([
      { line: 1, field: 'line', detail: 'is longer than 64 KiB (65536 bytes); it was skipped' },
      { line: 2, field: 'line', detail: 'is not valid UTF-8 text' },
    ]);
    expect(rowsOf(results).map((r) => r.line)).toEqual([3]);
  });
});

describe('streaming', () => {
  const N = 200_000;

  /** Lines made on demand, 1,000 per chunk; `pulled` counts chunks handed out. */
  async function* generated(
    header: string | null,
    line: (i: number) => string,
    state: { pulled: number; closed: boolean },
  ) {
    try {
      if (header !== null) yield `${header}\n`;
      for (let i = 0; i < N; i += 1000) {
        state.pulled++;
        let text = '';
        for (let j = i; j < i + 1000; j++) text += `${line(j)}\n`;
        yield text;
      }
    } finally {
      state.closed = true;
    }
  }
  const csvLine = (j: number) =>
    `2026-01-${String((j % 28) + 1).padStart(2, '0')},${SKY},US,${j},0,${j + 1},${j % 100}.000001`;
  const jsonLine = (j: number) =>
    JSON.stringify({ ...GOOD_JSON, impressions: j, adRequests: j + 1, revenue: `${j % 100}.000001` });
  // Σ (j mod 100)·10^6 + 1 over j < N: 2,000 runs of 0..99.
  const expectedMicros = (N / 100) * 4950 * 1_000_000 + N;

  it.each([
    ['csv', Object.keys(GOOD).join(','), csvLine, 2],
    ['ndjson', null, jsonLine, 1],
  ] as const)('reads %s of 200,000 lines as it arrives', { timeout: 120_000 }, async (format, header, line, first) => {
    const state = { pulled: 0, closed: false };
    let count = 0;
    let micros = 0;
    let last = 0;
    let pulledAtFirstRow = -1;
    for await (const result of parseRevenueFile(generated(header, line, state), format, { today: TODAY })) {
      if ('error' in result) throw new Error(JSON.stringify(result.error));
      if (count++ === 0) pulledAtFirstRow = state.pulled;
      micros += result.row.revenueMicros;
      last = result.row.line;
    }
    expect(count).toBe(N);
    expect(last).toBe(N - 1 + first);
    expect(micros).toBe(expectedMicros);
    // The first row comes out before the second chunk is even made: nothing waits for the whole file.
    expect(pulledAtFirstRow).toBe(1);
  });

  it.each(['csv', 'ndjson'] as const)('stops reading the input when the consumer stops (%s)', async (format) => {
    const state = { pulled: 0, closed: false };
    const source = generated(
      format === 'csv' ? Object.keys(GOOD).join(',') : null,
      format === 'csv' ? csvLine : jsonLine,
      state,
    );
    let seen = 0;
    for await (const result of parseRevenueFile(source, format, { today: TODAY })) {
      expect(result).toHaveProperty('row');
      if (++seen === 10) break;
    }
    expect(state.closed).toBe(true);
    expect(state.pulled).toBe(1);
  });
});

describe('formatFromName', () => {
  it.each([
    ['revenue.csv', 'csv'],
    ['REVENUE.CSV', 'csv'],
    ['text/csv', 'csv'],
    ['text/csv; charset=utf-8', 'csv'],
    ['rows.ndjson', 'ndjson'],
    ['rows.jsonl', 'ndjson'],
    ['application/x-ndjson', 'ndjson'],
    ['application/jsonl', 'ndjson'],
    ['exports/2026/rows.JSONL', 'ndjson'],
    ['rows.json', null],
    ['rows.csv.gz', null],
    ['application/json', null],
    ['', null],
  ])('%j → %j', (name, format) => {
    expect(formatFromName(name)).toBe(format);
  });
});
