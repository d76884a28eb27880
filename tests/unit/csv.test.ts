import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvCell, csvTable } from '@/lib/shared/csv';

describe('csvCell', () => {
  it('guards cells a spreadsheet would run as a formula', () => {
    const formulas = ['=1+1', '+1', '-1', '@SUM(A1)', '|calc', '\tx', '\rx', '\nx', ' =1+1', '\u00a0 @x', '\n=1'];
    for (const text of formulas) expect(csvCell(text), JSON.stringify(text)).toMatch(/^"?'/);
    for (const text of [' x', 'a=b', 'x|y', 'A-1']) expect(csvCell(text), JSON.stringify(text)).toBe(text);
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
  });

  it('leaves plain text and numbers alone (negative numbers are numbers, not formulas)', () => {
    expect(csvCell('Sky Merge')).toBe('Sky Merge');
    expect(csvCell(-1.5)).toBe('-1.5');
    expect(csvCell(null)).toBe('');
  });
});

describe('csvTable', () => {
  it('writes a header and rows that any CSV reader gets back exactly (guard aside)', () => {
    const rows = [
      { country: 'US', name: 'a, "quoted"\nname', revenue: 12.5 },
      { country: 'DE', name: '=cmd', revenue: 0 },
      { country: 'FR', name: null, revenue: 3 },
    ];
    const text = csvTable(rows, ['country', 'name', 'revenue']);
    expect(text.endsWith('\n')).toBe(true);
    expect(parse(text, { columns: true })).toEqual([
      { country: 'US', name: 'a, "quoted"\nname', revenue: '12.5' },
      { country: 'DE', name: "'=cmd", revenue: '0' },
      { country: 'FR', name: '', revenue: '3' },
    ]);
  });

  it('is just the header line when there are no rows', () => {
    expect(csvTable([], ['a', 'b'])).toBe('a,b\n');
  });
});
