import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect, pgTable, integer, text, date, uuid } from 'drizzle-orm/pg-core';
import { filterToSql, searchToSql, parseFilter, parseFilterList, type FieldDef } from '@/lib/query';
import { errorsOf, readRows } from './helpers';

const A = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const B = '00000000-0000-4000-8000-000000000002';

const fields: FieldDef[] = [
  { name: 'gameName', type: 'string' },
  { name: 'country', type: 'string' },
  { name: 'impressions', type: 'number' },
  { name: 'revenueAmount', type: 'number' },
  { name: 'createdAt', type: 'date' },
  { name: 'gameId', type: 'uuid' },
];
const columns = {
  gameName: sql`name`,
  country: sql`country`,
  impressions: sql`impressions`,
  revenueAmount: sql`revenue`,
  createdAt: sql`day`,
  gameId: sql`site_id`,
};

// id, name, country, impressions, revenue, day, site_id
const rows: [number, string | null, string | null, number | null, number | null, string | null, string | null][] = [
  [1, 'Alpha 50% OFF', 'US', 100, 1.5, '2026-01-01', A],
  [2, 'beta_game', 'de', 200, 2.5, '2026-01-15', B],
  [3, 'betaXgame', null, null, null, null, null],
  [4, null, 'FR', 50, 0.5, '2026-02-01', A],
  [5, '50X off', 'us', 3_000_000_000, 10, '2026-02-01', B],
  [6, 'back\\slash, semi;colon', 'Zz', 0, 0, '2025-12-31', A],
];

const client = new PGlite();
const db = drizzle({ client });

beforeAll(async () => {
  await db.execute(sql`create temp table t (
    id int primary key, name text, country char(2), impressions bigint, revenue double precision, day date, site_id uuid)`);
  for (const r of rows)
    await db.execute(sql`insert into t values (${r[0]}, ${r[1]}, ${r[2]}, ${r[3]}, ${r[4]}, ${r[5]}, ${r[6]})`);
});
afterAll(() => client.close());

async function ids(condition: SQL | undefined): Promise<number[]> {
  const result = await db.execute<{ id: number }>(sql`select id from t where ${condition ?? sql`true`} order by id`);
  return result.rows.map((r) => r.id);
}
const match = (filter: string) => ids(filterToSql(parseFilter(filter, fields), columns));

describe('filterToSql against PostgreSQL (PGlite)', () => {
  it('returns undefined for an empty expression', () => {
    expect(filterToSql([], columns)).toBeUndefined();
    expect(filterToSql([[]], columns)).toBeUndefined();
  });

  it('compares strings case-insensitively', async () => {
    expect(await match('country==us')).toEqual([1, 5]);
    expect(await match('country==US')).toEqual([1, 5]);
    expect(await match('gameName==ALPHA 50% off')).toEqual([1]);
  });

  it('never matches NULL with == or =@, always with != and !@', async () => {
    expect(await match('country!=us')).toEqual([2, 3, 4, 6]);
    expect(await match('gameName=@a')).toEqual([1, 2, 3, 6]);
    expect(await match('gameName!@a')).toEqual([4, 5]);
    expect(await match('impressions!=100')).toEqual([2, 3, 4, 5, 6]);
    expect(await match(`gameId!=${A}`)).toEqual([2, 3, 5]);
    expect(await match('createdAt!=2026-02-01')).toEqual([1, 2, 3, 6]);
  });

  it('treats % and _ literally in contains', async () => {
    expect(await match('gameName=@50%')).toEqual([1]);
    expect(await match('gameName=@a_g')).toEqual([2]);
    expect(await match('gameName!@%')).toEqual([2, 3, 4, 5, 6]);
  });

  it('matches escaped separators and backslashes literally', async () => {
    expect(await match('gameName=@\\\\slash\\, semi\\;')).toEqual([6]);
  });

  it('orders strings by code point, case-insensitively', async () => {
    expect(await match('country>E')).toEqual([1, 4, 5, 6]);
    expect(await match('country<=de')).toEqual([2]);
    expect(await match('gameName<B')).toEqual([1, 5]);
  });

  it('compares numbers numerically, beyond int32, against bigint and double columns', async () => {
    expect(await match('impressions>=100')).toEqual([1, 2, 5]);
    expect(await match('impressions>2147483647')).toEqual([5]);
    expect(await match('revenueAmount<1')).toEqual([4, 6]);
    expect(await match('revenueAmount==2.5')).toEqual([2]);
    expect(await match('revenueAmount>-1e2')).toEqual([1, 2, 4, 5, 6]);
  });

  it('compares dates and uuids', async () => {
    expect(await match('createdAt>=2026-01-15')).toEqual([2, 4, 5]);
    expect(await match('createdAt<2026-01-01')).toEqual([6]);
    expect(await match(`gameId==${A.toUpperCase()}`)).toEqual([1, 4, 6]);
  });

  it('applies "," as OR inside ";" as AND', async () => {
    expect(await match('country==us,country==fr;impressions<1000')).toEqual([1, 4]);
    expect(await match('country==fr;country==us,impressions<1000')).toEqual([4]);
    expect(await match('country==de,country==fr,gameName=@x;createdAt>=2026-01-15')).toEqual([2, 4, 5]);
  });

  it('compiles FilterList expressions', async () => {
    const expr = parseFilterList(
      [
        { key: 'country', value: 'US,fr' },
        { key: 'gameId', value: A },
      ],
      fields,
    );
    expect(await ids(filterToSql(expr, columns))).toEqual([1, 4]);
  });

  it('binds every value as a parameter', () => {
    const evil = "x' or '1'='1' --";
    const query = new PgDialect().sqlToQuery(
      filterToSql(parseFilter(`gameName==${evil};impressions>5`, fields), columns)!,
    );
    expect(query.sql).not.toContain("'1'");
    expect(query.params).toEqual([evil, '5']);
  });

  it('survives hostile values at runtime', async () => {
    expect(await match("gameName!=x' or '1'='1' --")).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await match("gameName==x' or '1'='1' --")).toEqual([]);
    expect(await match('gameName=@\'"$1')).toEqual([]);
  });

  it('works with drizzle column objects', async () => {
    const t = pgTable('t', { id: integer('id'), name: text('name'), day: date('day'), siteId: uuid('site_id') });
    const where = filterToSql(parseFilter(`gameName=@BETA;createdAt>2026-01-01,gameId==${B}`, fields), {
      gameName: t.name,
      createdAt: t.day,
      gameId: t.siteId,
    });
    const result = await db.select({ id: t.id }).from(t).where(where).orderBy(t.id);
    expect(result.map((r) => r.id)).toEqual([2]);
  });

  it('throws a programming error for an unmapped field', () => {
    expect(() => filterToSql(parseFilter('country==US', fields), {})).toThrow('no column mapped for field "country"');
  });
});

describe('searchToSql', () => {
  const search = (s: string, extra?: SQL) => ids(searchToSql(s, [sql`name`, sql`country`], extra));

  it('matches a case-insensitive substring in any column', async () => {
    expect(await search('US')).toEqual([1, 5]);
    expect(await search('OFF')).toEqual([1, 5]);
    expect(await search('zz')).toEqual([6]);
  });

  it('treats % and _ literally', async () => {
    expect(await search('%')).toEqual([1]);
    expect(await search('_')).toEqual([2]);
  });

  it('ORs the extra condition in', async () => {
    expect(await search('france', sql`country in ('FR')`)).toEqual([4]);
    expect(await search('us', sql`id = 2 or id = 3`)).toEqual([1, 2, 3, 5]);
  });

  it('matches nothing with no columns and no extra condition', async () => {
    expect(await ids(searchToSql('x', []))).toEqual([]);
  });

  it('casts non-text columns', async () => {
    expect(await ids(searchToSql('3f2504E0', [sql`site_id`]))).toEqual([1, 4, 6]);
  });
});

describe('Search', () => {
  const parseSearch = (query: string) => readRows(query, []).search;
  it('trims and treats blank as absent', () => {
    expect(parseSearch('')).toBeNull();
    expect(parseSearch('Search=%20%20')).toBeNull();
    expect(parseSearch('search=%20ger%20')).toBe('ger');
    expect(parseSearch(`SEARCH=${'é'.repeat(200)}`)).toHaveLength(200);
  });

  it('rejects more than 200 characters', () => {
    expect(errorsOf(() => parseSearch(`Search=${'a'.repeat(201)}`))).toEqual([
      { parameter: 'Search', detail: 'must be at most 200 characters, got 201' },
    ]);
  });
});
