import { describe, it, expect } from 'vitest';
import { parseFilter, parseFilterList, MAX_FILTER_LIST_VALUES, MAX_FILTER_TERMS, type FieldDef } from '@/lib/query';
import { errorsOf, readRows } from './helpers';

const fields: FieldDef[] = [
  { name: 'country', type: 'string' },
  { name: 'gameName', type: 'string' },
  { name: 'revenueAmount', type: 'number' },
  { name: 'createdAt', type: 'date' },
  { name: 'gameId', type: 'uuid' },
];
const ID = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const t = (field: string, op: string, value: string | number) => ({
  field,
  type: fields.find((f) => f.name === field)!.type,
  op,
  value,
});
/** The one error detail for a bad Filter. */
const filterError = (input: string) => {
  const errors = errorsOf(() => parseFilter(input, fields));
  expect(errors).toHaveLength(1);
  expect(errors[0].parameter).toBe('Filter');
  return errors[0].detail;
};

describe('parseFilter: structure', () => {
  it('parses a single term', () => {
    expect(parseFilter('country==US', fields)).toEqual([[t('country', '==', 'US')]]);
  });

  it('binds "," tighter than ";"', () => {
    expect(parseFilter('country==US,gameName==x;revenueAmount>3', fields)).toEqual([
      [t('country', '==', 'US'), t('gameName', '==', 'x')],
      [t('revenueAmount', '>', 3)],
    ]);
    expect(parseFilter('country==US;gameName==x,revenueAmount>3', fields)).toEqual([
      [t('country', '==', 'US')],
      [t('gameName', '==', 'x'), t('revenueAmount', '>', 3)],
    ]);
  });

  it('reads every operator, longest first', () => {
    const ops = ['==', '!=', '>', '>=', '<', '<=', '=@', '!@'];
    for (const op of ops) expect(parseFilter(`gameName${op}a`, fields)).toEqual([[t('gameName', op, 'a')]]);
    expect(parseFilter('gameName>==x', fields)).toEqual([[t('gameName', '>=', '=x')]]);
    expect(parseFilter('gameName===x', fields)).toEqual([[t('gameName', '==', '=x')]]);
  });

  it('matches field names case-insensitively and returns them canonically', () => {
    expect(parseFilter('COUNTRY==us;RevenueAMOUNT<=2', fields)).toEqual([
      [t('country', '==', 'us')],
      [t('revenueAmount', '<=', 2)],
    ]);
  });

  it('ignores whitespace around field and operator and trims the value', () => {
    expect(parseFilter('  country  ==  US  ,  gameName =@ a b  ', fields)).toEqual([
      [t('country', '==', 'US'), t('gameName', '=@', 'a b')],
    ]);
  });
});

describe('parseFilter: escaping', () => {
  it('makes , ; and \\ literal', () => {
    expect(parseFilter('gameName==a\\,b\\;c\\\\d', fields)).toEqual([[t('gameName', '==', 'a,b;c\\d')]]);
  });

  it('keeps escaped spaces and any other escaped character', () => {
    expect(parseFilter('gameName==\\ x\\ ', fields)).toEqual([[t('gameName', '==', ' x ')]]);
    expect(parseFilter('gameName==\\a', fields)).toEqual([[t('gameName', '==', 'a')]]);
  });

  it('takes % _ and operator characters in values literally', () => {
    expect(parseFilter('gameName=@50%_off!=<>', fields)).toEqual([[t('gameName', '=@', '50%_off!=<>')]]);
  });

  it('rejects a trailing backslash with its position', () => {
    expect(filterError('gameName==ab\\')).toBe(
      'trailing backslash at position 12: a backslash must be followed by the character it escapes',
    );
  });
});

describe('parseFilter: typed values', () => {
  it('parses numbers', () => {
    expect(parseFilter('revenueAmount>=-1.5e2,revenueAmount<.5,revenueAmount==+3', fields)).toEqual([
      [t('revenueAmount', '>=', -150), t('revenueAmount', '<', 0.5), t('revenueAmount', '==', 3)],
    ]);
  });

  it.each(['abc', '1,5', '0x10', 'Infinity', '1e999', '1.2.3', '--1', 'NaN'])('rejects the number %j', (v) => {
    const input = `revenueAmount==${v.replace(',', '\\,')}`;
    expect(filterError(input)).toBe(
      `expected a number for field "revenueAmount", got ${JSON.stringify(v)} at position 15`,
    );
  });

  it('parses dates and uuids, lower-casing uuids', () => {
    expect(parseFilter(`createdAt>=2026-01-01;gameId==${ID.toUpperCase()}`, fields)).toEqual([
      [t('createdAt', '>=', '2026-01-01')],
      [t('gameId', '==', ID)],
    ]);
  });

  it('rejects bad dates and uuids with the value position', () => {
    expect(filterError('createdAt < 2026-02-30')).toBe(
      'expected a date (YYYY-MM-DD) for field "createdAt", got "2026-02-30" at position 12',
    );
    expect(filterError('country==US;gameId!=42')).toBe('expected a uuid for field "gameId", got "42" at position 20');
  });

  it('rejects operators that do not fit the field type', () => {
    expect(filterError('revenueAmount=@1')).toBe(
      'operator "=@" at position 13 does not apply to number field "revenueAmount"; use one of == != > >= < <=',
    );
    expect(filterError('createdAt!@2026-01-01')).toContain('does not apply to date field "createdAt"');
    expect(filterError(`gameId>${ID}`)).toBe(
      'operator ">" at position 6 does not apply to uuid field "gameId"; use one of == !=',
    );
  });
});

describe('parseFilter: errors name the position', () => {
  it('rejects an empty filter', () => {
    expect(filterError('')).toContain('is empty');
    expect(filterError('   ')).toContain('is empty');
  });

  it('rejects empty terms anywhere', () => {
    expect(filterError(';country==US')).toBe('expected a term (field op value) at position 0, got ";"');
    expect(filterError('country==US;;gameName==x')).toBe('expected a term (field op value) at position 12, got ";"');
    expect(filterError('country==US,')).toBe(
      'expected a term (field op value) at position 12, got the end of the input',
    );
    expect(filterError('==US')).toBe('expected a term (field op value) at position 0, got "="');
  });

  it('rejects unknown fields, listing the allowed ones', () => {
    expect(filterError('country==US;foo==1')).toBe(
      'unknown field "foo" at position 12; allowed: country, gameName, revenueAmount, createdAt, gameId',
    );
  });

  it('rejects a missing operator', () => {
    expect(filterError('country')).toBe(
      'expected an operator (== != >= <= =@ !@ > <) after field "country" at position 7, got the end of the input',
    );
    expect(filterError('country US')).toContain('at position 8, got "U"');
    expect(filterError('country@=US')).toContain('at position 7, got "@"');
    expect(filterError('country=US')).toContain('at position 7, got "=" (use == for equality)');
  });

  it('rejects a missing value', () => {
    expect(filterError('country==')).toBe('expected a value after "==" at position 9');
    expect(filterError('country==  ;gameName==x')).toBe('expected a value after "==" at position 9');
  });

  it('caps the number of terms', () => {
    const input = Array.from({ length: MAX_FILTER_TERMS + 1 }, () => 'country==US').join(',');
    expect(filterError(input)).toContain(`more than ${MAX_FILTER_TERMS} terms`);
    expect(parseFilter(input.slice(0, input.lastIndexOf(',')), fields)[0]).toHaveLength(MAX_FILTER_TERMS);
  });
});

describe('parseFilterList', () => {
  it('makes each entry an OR of equalities and ANDs the entries', () => {
    expect(
      parseFilterList(
        [
          { key: 'COUNTRY', value: 'US, DE' },
          { key: 'revenueAmount', value: '1,2.5' },
        ],
        fields,
      ),
    ).toEqual([
      [t('country', '==', 'US'), t('country', '==', 'DE')],
      [t('revenueAmount', '==', 1), t('revenueAmount', '==', 2.5)],
    ]);
  });

  it('honours escapes and keeps ; literal', () => {
    expect(parseFilterList([{ key: 'gameName', value: 'a\\,b;c,d\\\\' }], fields)).toEqual([
      [t('gameName', '==', 'a,b;c'), t('gameName', '==', 'd\\')],
    ]);
  });

  it('drops empty items but needs at least one value', () => {
    expect(parseFilterList([{ key: 'country', value: 'US,,' }], fields)).toEqual([[t('country', '==', 'US')]]);
    expect(errorsOf(() => parseFilterList([{ key: 'country', value: ' , ' }], fields))).toEqual([
      { parameter: 'FilterList[country]', detail: 'needs at least one value, e.g. FilterList[country]=a,b' },
    ]);
  });

  it('reports every bad entry: unknown field by its key, bad value by the canonical field', () => {
    const errors = errorsOf(() =>
      parseFilterList(
        [
          { key: 'foo', value: 'x' },
          { key: 'GAMEID', value: `${ID},nope` },
          { key: 'createdAt', value: 'x\\' },
        ],
        fields,
      ),
    );
    expect(errors).toEqual([
      {
        parameter: 'FilterList[foo]',
        detail: 'unknown field "foo"; allowed: country, gameName, revenueAmount, createdAt, gameId',
      },
      {
        parameter: 'FilterList[gameId]',
        detail: 'expected a uuid for field "gameId", got "nope" at position 37 of the value',
      },
      {
        parameter: 'FilterList[createdAt]',
        detail: 'trailing backslash at position 1: a backslash must be followed by the character it escapes',
      },
    ]);
  });

  it('caps the total number of values, across fields', () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => String(i)).join(',');
    const half = MAX_FILTER_LIST_VALUES / 2;
    const entries = (extra: number) => [
      { key: 'revenueAmount', value: values(half) },
      { key: 'gameName', value: values(half + extra) },
    ];
    expect(parseFilterList(entries(0), fields).flat()).toHaveLength(MAX_FILTER_LIST_VALUES);
    expect(errorsOf(() => parseFilterList(entries(1), fields))).toEqual([
      { parameter: 'FilterList', detail: `has more than ${MAX_FILTER_LIST_VALUES} values in all` },
    ]);
  });
});

describe('Filter and FilterList together', () => {
  const parseFilterParams = (query: string, f: readonly FieldDef[]) => readRows(query, f).filter;
  it('is empty when neither Filter nor FilterList is given', () => {
    expect(parseFilterParams('page=1', fields)).toEqual([]);
  });

  it('ANDs Filter and FilterList, reading names case-insensitively', () => {
    const p = `filter=${encodeURIComponent('revenueAmount>1,country==FR')}&filterlist.country=US,DE`;
    expect(parseFilterParams(p, fields)).toEqual([
      [t('revenueAmount', '>', 1), t('country', '==', 'FR')],
      [t('country', '==', 'US'), t('country', '==', 'DE')],
    ]);
  });

  it('reports errors of both together', () => {
    const errors = errorsOf(() => parseFilterParams('Filter=nope==1&FilterList[bad]=1&FilterList=x', fields));
    expect(errors.map((e) => e.parameter)).toEqual(['FilterList', 'Filter']);
    const more = errorsOf(() => parseFilterParams('Filter=&FilterList[bad]=1', fields));
    expect(more.map((e) => e.parameter)).toEqual(['Filter', 'FilterList[bad]']);
  });
});
