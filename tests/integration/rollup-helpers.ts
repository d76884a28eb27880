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

/** [site column, country column, grain] for each additive grain. */
const GRAINS = [
  ['null::uuid', 'null', 'd'],
  ['null::uuid', 'null', 'm'],
  ['null::uuid', 'trim(country)', 'd'],
  ['null::uuid', 'trim(country)', 'm'],
  ['site_id', 'null', 'd'],
  ['site_id', 'null', 'm'],
  ['site_id', 'trim(country)', 'm'],
] as const;

const PERIODS = { d: sql`day`, m: sql`date_trunc('month', day::timestamp)::date` };

/**
 * The running totals (grain c), by their definition and from scratch: on each day a site has rows, for each country
 * the site has rows in on or before that day, the sums of that site and country's rows through the day.
 */
const runningTotals = (daily: ReturnType<typeof sql>) => sql`
  select user_id, site_id, country, 'c', day::text, impressions::text, clicks::text, ad_requests::text,
    revenue_micros::text, rows::text
  from (
    select days.user_id, days.site_id, trim(firsts.country) as country, days.day, firsts.first,
      sum(coalesce(r.impressions, 0)) over pair as impressions, sum(coalesce(r.clicks, 0)) over pair as clicks,
      sum(coalesce(r.ad_requests, 0)) over pair as ad_requests,
      sum(coalesce(r.revenue_micros, 0)) over pair as revenue_micros, count(r.day) over pair as rows
    from (select distinct user_id, site_id, day from (${daily}) as a) as days
    join (select site_id, country, min(day) as first from (${daily}) as b group by 1, 2) as firsts
      on firsts.site_id = days.site_id
    left join (${daily}) as r on r.site_id = days.site_id and r.country = firsts.country and r.day = days.day
    window pair as (partition by days.site_id, firsts.country order by days.day)
  ) as grid
  where day >= first`;

const fromDaily = (where: ReturnType<typeof sql>) => {
  const daily = sql`select * from revenue_daily ${where}`;
  return sql.join(
    [
      ...GRAINS.map(([site, country, grain]) => {
        return sql`select user_id, ${sql.raw(site)}, ${sql.raw(country)}, ${grain}::text, ${PERIODS[grain]}::text,
        sum(impressions)::text, sum(clicks)::text, sum(ad_requests)::text, sum(revenue_micros)::text, count(*)::text
        from (${daily}) as daily group by 1, 2, 3, 5`;
      }),
      runningTotals(daily),
    ],
    sql` union all `,
  );
};

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
