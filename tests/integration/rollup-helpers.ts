/**
 * The rollup's oracle: revenue_rollup computed independently from revenue_daily, one plain GROUP BY per
 * grain (the migration uses GROUPING SETS), so any write path can be checked to keep the rollup exact.
 */
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Db } from '@/db/client';
import { sqlRows, uuidArray } from './reports-helpers';

export const ROLLUP = sql`select user_id, site_id, trim(country) as country, grain::text, period::text, impressions::text,
  clicks::text, ad_requests::text, revenue_micros::text, rows::text from revenue_rollup`;

/** [site column, country column, grain] for each grain the reports read. */
const GRAINS = [
  ['null::uuid', 'null', 'd'],
  ['null::uuid', 'null', 'm'],
  ['null::uuid', 'trim(country)', 'd'],
  ['null::uuid', 'trim(country)', 'm'],
  ['site_id', 'null', 'd'],
  ['site_id', 'null', 'm'],
  ['site_id', 'trim(country)', 'm'],
  ['site_id', 'trim(country)', 'y'],
  ['site_id', 'trim(country)', 'q'],
  ['site_id', 'trim(country)', 't'],
  ['site_id', 'trim(country)', 'f'],
  ['site_id', 'trim(country)', 'e'],
  ['site_id', 'trim(country)', 's'],
] as const;

/**
 * A span of L days (t, f, e, s) is a node of the month's Fenwick tree: the L days ending on day i, for each i whose
 * lowest set bit is L; a day belongs to the node ending on the next multiple of L when that multiple is an odd one.
 */
const span = (length: number) => {
  const end = sql.raw(`((extract(day from day)::int + ${length - 1}) / ${length}) * ${length}`);
  return sql`case when (${end} / ${sql.raw(String(length))}) % 2 = 1
    then date_trunc('month', day::timestamp)::date + ${end} - ${sql.raw(String(length))} end`;
};

const PERIODS = {
  d: sql`day`,
  t: span(2),
  f: span(4),
  e: span(8),
  s: span(16),
  m: sql`date_trunc('month', day::timestamp)::date`,
  q: sql`date_trunc('quarter', day::timestamp)::date`,
  y: sql`date_trunc('year', day::timestamp)::date`,
};

const fromDaily = (where: ReturnType<typeof sql>) =>
  sql.join(
    GRAINS.map(([site, country, grain]) => {
      return sql`select user_id, ${sql.raw(site)}, ${sql.raw(country)}, ${grain}::text, ${PERIODS[grain]}::text,
        sum(impressions)::text, sum(clicks)::text, sum(ad_requests)::text, sum(revenue_micros)::text, count(*)::text
        from (select * from revenue_daily ${where}) as daily where ${PERIODS[grain]} is not null group by 1, 2, 3, 5`;
    }),
    sql` union all `,
  );

/** Rows in one table and not the other (both ways), for the accounts given or for all; [] when exact. */
async function rollupDifferences(db: Db, userIds?: readonly string[]) {
  const only = userIds ? sql`where user_id = any(${uuidArray(userIds)})` : sql``;
  const daily = fromDaily(only);
  const rollup = sql`${ROLLUP} ${only}`;
  return sqlRows(
    db,
    sql`(select 'only in revenue_rollup' as side, * from (${rollup} except all (${daily})) a)
    union all (select 'missing from revenue_rollup', * from ((${daily}) except all ${rollup}) b) limit 20`,
  );
}

export async function expectRollupMatchesDaily(db: Db, userIds?: readonly string[]) {
  expect(await rollupDifferences(db, userIds)).toEqual([]);
}
