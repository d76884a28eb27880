/**
 * The one write path for revenue rows (docs/architecture.md, "Data in"): rows are COPY-ed into a staging table, their
 * sites resolved and checked in SQL, then applied by a single INSERT … ON CONFLICT that changes only rows
 * whose values differ, so re-importing a file is a no-op. Everything runs inside the caller's BulkSession
 * transaction: the rollup triggers fold the same statement in, and a bad line leaves nothing behind.
 */
import { type BulkSession, withSetting } from '@/db/bulk';
import type { ImportRow, LineError } from '@/lib/revenue-in/parse';
import { queueRevenueWrittenSql } from '@/lib/jobs';

const STAGING = 'revenue_import';
const STAGING_COLUMNS = [
  'line',
  'site_id',
  'site_name',
  'day',
  'country',
  'impressions',
  'clicks',
  'ad_requests',
  'revenue_micros',
  'ad_unit_id',
] as const;

export async function createStaging(session: BulkSession): Promise<void> {
  await session.query(`create temp table ${STAGING} (
    line bigint not null, site_id uuid, site_name text, day date not null, country char(2) not null,
    impressions bigint not null, clicks bigint not null, ad_requests bigint not null, revenue_micros bigint not null,
    ad_unit_id text) on commit drop`);
}

/** One row's values in the staging table's column order, for a CopyText that stage() sends. */
export const stagingValues = (r: ImportRow) => [
  r.line,
  r.siteId,
  r.siteName,
  r.day,
  r.country,
  r.impressions,
  r.clicks,
  r.adRequests,
  r.revenueMicros,
  r.adUnitId,
];

export const stage = (session: BulkSession, lines: Uint8Array<ArrayBuffer>) =>
  session.copyIn(STAGING, STAGING_COLUMNS, lines);

export interface SiteOptions {
  /** The account whose sites rows may name, and that owns created sites; null: sites of any account, by id. */
  ownerId: string | null;
  /** Create the sites that do not exist yet (needs ownerId). */
  createSites: boolean;
}

/** A check over the staged rows: the SQL condition of a bad row, and how to describe it. */
interface StagedCheck {
  field: string;
  where: string;
  detail: string; // SQL text expression over `s` (the staged row)
  from?: string; // the staged rows as `s`, when a check needs more than their columns
}

/** Bad rows, as errors in line order: at most `max` of them, with how many there are in all. */
async function failing(session: BulkSession, check: StagedCheck, params: unknown[], max: number) {
  const rows = await session.query<{ line: string; detail: string; total: string }>(
    `select s.line, ${check.detail} as detail, count(*) over () as total
     from ${check.from ?? `${STAGING} s`} where ${check.where} order by s.line limit ${max}`,
    params,
  );
  const errors: LineError[] = rows.map((r) => ({ line: Number(r.line), field: check.field, detail: r.detail }));
  return { errors, count: Number(rows[0]?.total ?? 0) };
}

/**
 * Gives every staged row its site id (rows may name sites instead, within the owner's account), creating
 * missing sites when asked, and returns the rows whose site is unknown, ambiguous or another account's.
 */
export async function resolveSites(session: BulkSession, options: SiteOptions, max: number) {
  const { ownerId, createSites } = options;
  // Temporary tables are never analyzed automatically: without statistics the planner takes the staged
  // rows for a handful and joins them row by row. What it needs (how many rows, a few hundred sites, days and
  // countries) a sample of 3,000 rows tells as well as the default 30,000: 11 ms instead of 50 for 200,000 rows.
  await withSetting(session, 'default_statistics_target', '10', () => session.query(`analyze ${STAGING}`));
  let created = 0;
  if (ownerId && createSites) {
    const [byId] = await session.query<{ n: string }>(
      `with added as (insert into sites (id, user_id, name, status)
         select distinct on (s.site_id) s.site_id, $1, s.site_name, 'live' from ${STAGING} s
         where s.site_id is not null and not exists (select from sites x where x.id = s.site_id)
         order by s.site_id, s.line returning 1)
       select count(*) as n from added`,
      [ownerId],
    );
    const [byName] = await session.query<{ n: string }>(
      `with added as (insert into sites (user_id, name, status)
         select distinct $1::uuid, s.site_name, 'live'::site_status from ${STAGING} s
         where s.site_id is null and not exists (select from sites x where x.user_id = $1 and x.name = s.site_name)
         returning 1)
       select count(*) as n from added`,
      [ownerId],
    );
    created = Number(byId.n) + Number(byName.n);
  }
  // A name must pick exactly one of the owner's sites: names are not unique, ids are. Each distinct name is
  // looked up once (a lookup per row took 140 s for 200,000 rows).
  const named = `(select count(*) from sites x where x.user_id = $1 and x.name = s.site_name)`;
  if (ownerId) {
    await session.query(
      `with names as (
         select x.name, min(x.id::text)::uuid as id, count(*) as sites from sites x
         where x.user_id = $1 and x.name in (select site_name from ${STAGING} where site_id is null)
         group by x.name)
       update ${STAGING} s set site_id = names.id from names
       where s.site_id is null and s.site_name = names.name and names.sites = 1`,
      [ownerId],
    );
  }
  const checks: StagedCheck[] = [
    {
      field: 'siteName',
      where: `s.site_id is null`,
      detail: ownerId
        ? `case when ${named} > 1 then format('%s sites of the account are named %s: name the site by siteId', ${named}, s.site_name)
           else format('the account has no site named %s%s', s.site_name, ', and --create-sites was not given') end`
        : `'naming a site by name needs the account that owns it (--owner); or give a siteId column'`,
    },
    {
      field: 'siteId',
      where: `s.site_id is not null and not exists (select from sites x where x.id = s.site_id)`,
      detail: `format('no site has id %s', s.site_id)`,
    },
  ];
  if (ownerId) {
    checks.push({
      field: 'siteId',
      where: `exists (select from sites x where x.id = s.site_id and x.user_id <> $1)`,
      detail: `format('site %s belongs to another account', s.site_id)`,
    });
  }
  const errors: LineError[] = [];
  let count = 0;
  for (const check of checks) {
    const params = check.where.includes('$1') || check.detail.includes('$1') ? [ownerId] : [];
    const found = await failing(session, check, params, max);
    errors.push(...found.errors);
    count += found.count;
  }
  errors.sort((a, b) => a.line - b.line);
  return { created, errors: errors.slice(0, max), count };
}

/** Lines that repeat an earlier line's site, day and country: which of them should win is not ours to guess. */
const duplicates = (session: BulkSession, max: number) =>
  failing(
    session,
    {
      field: 'line',
      from: `(select *, min(line) over (partition by site_id, day, country) as first_line from ${STAGING}) s`,
      where: `s.line <> s.first_line`,
      detail: `format('repeats the site, day and country of line %s', s.first_line)`,
    },
    [],
    max,
  );

/**
 * A file is compared with the stored rows of its days by merging both sides once when it holds at least this
 * share of them; fewer (corrections spread over a year of a large account) are looked up one by one.
 */
const MERGE_FROM_SHARE = 0.25;

/**
 * Sets aside the staged rows that equal the stored ones, so that re-sending a file reads the table once and writes
 * nothing: a file's rows span a few accounts and a run of days, whose stored rows one range of the table returns
 * for a join (an upsert's lookup per row takes ~4 µs on a 14.6 M-row table, and locks the row it leaves).
 * Bounds are parameters so the plan sees them. A file that repeats a key is left whole: 'repeats'. Otherwise
 * counts the staged rows stored with other values, which the upsert updates (a partitioned table cannot return
 * `xmax` to tell an update from an insert), and says whether every staged row is stored as it is (`same`): then
 * nothing is left to write, and the staged rows are not even set aside (0.25 s for 200,000).
 */
async function setAsideUnchanged(session: BulkSession): Promise<'repeats' | { changed: number; same: boolean }> {
  // A large file's keys are hashed and sorted in memory from here on, the upsert's sort included (the default 4 MB
  // spills them to disk in batches). Left set for the rest of the transaction on purpose.
  await session.query(`set local work_mem = '64MB'`);
  // One pass over the staged rows, each key once and then each site's (five passes: 134 ms for 200,000 rows, this 108).
  const [span] = await session.query<{
    accounts: string | null;
    first: string;
    last: string;
    repeats: boolean;
    staged: string;
  }>(
    `with keys as (select site_id, day, count(*) as copies from ${STAGING} group by site_id, day, country),
       sites_staged as (select site_id, min(day) as first, max(day) as last, sum(copies) as staged,
                          bool_or(copies > 1) as repeats from keys group by site_id)
     select (select array_agg(distinct x.user_id)::text from sites_staged s join sites x on x.id = s.site_id) as accounts,
       min(first)::text as first, max(last)::text as last, coalesce(bool_or(repeats), false) as repeats,
       coalesce(sum(staged), 0) as staged
     from sites_staged`,
  );
  if (span.repeats) return 'repeats';
  if (!span.accounts) return { changed: 0, same: false };
  // Days just imported have no statistics yet (until autovacuum analyzes them), so the planner expects few stored
  // rows and looks each staged row up: 0.6–0.9 s for 200,000 rows, against 0.25 s for one merge of both sides.
  // How many rows those days hold, the rollup's account rows count.
  const [range] = await session.query<{ stored: string }>(
    `select coalesce(sum(rows), 0) as stored from revenue_rollup where user_id = any($1::uuid[]) and grain = 'd'
       and site_id is null and country is null and period between $2::date and $3::date`,
    [span.accounts, span.first, span.last],
  );
  const merge = Number(span.staged) >= MERGE_FROM_SHARE * Number(range.stored);
  const compare = () =>
    session.query<{ changed: string; same: boolean }>(
      `with stored as (
         select s.ctid as staged, (r.impressions, r.clicks, r.ad_requests, r.revenue_micros, r.ad_unit_id)
           is not distinct from (s.impressions, s.clicks, s.ad_requests, s.revenue_micros, s.ad_unit_id) as same
         from ${STAGING} s join revenue_daily r on r.site_id = s.site_id and r.day = s.day and r.country = s.country
         where r.user_id = any($1::uuid[]) and r.day between $2::date and $3::date),
       counts as (select count(*) filter (where same) as same, count(*) filter (where not same) as changed from stored),
       unchanged as (
         delete from ${STAGING} s using stored where s.ctid = stored.staged and stored.same
           and (select same from counts) < $4::bigint)
       select changed, same = $4::bigint as same from counts`,
      [span.accounts, span.first, span.last, span.staged],
    );
  const [stored] = merge ? await withSetting(session, 'enable_nestloop', 'off', compare) : await compare();
  return { changed: Number(stored.changed), same: stored.same };
}

/**
 * Applies the staged rows: new keys are inserted, existing ones updated only where a value differs.
 * Rows go in key order, so concurrent imports take their row locks in the same order and cannot deadlock.
 */
export async function upsertStaged(
  session: BulkSession,
  max: number,
): Promise<{ inserted: number; updated: number } | { errors: LineError[]; count: number }> {
  // Looked for before the upsert, which cannot be trusted to fail on them: on PostgreSQL 15 a repeat whose first
  // line equals the stored row updates nothing, so the second line wins without "cannot affect row a second time".
  const stored = await setAsideUnchanged(session);
  if (stored === 'repeats') return duplicates(session, max);
  if (stored.same) return { inserted: 0, updated: 0 };
  // The months the rows fall in (db/revenue-months.ts); usually there already, made before this transaction.
  await session.query(`select revenue_daily_add_months(min(day), max(day)) from ${STAGING}`);
  const [counts] = await session.query<{ written: string }>(
    `with upserted as (
       insert into revenue_daily as r
         (site_id, user_id, day, country, impressions, clicks, ad_requests, revenue_micros, ad_unit_id, updated_at)
       select s.site_id, x.user_id, s.day, s.country, s.impressions, s.clicks, s.ad_requests, s.revenue_micros,
              s.ad_unit_id, now()
       from ${STAGING} s join sites x on x.id = s.site_id
       order by s.site_id, s.day, s.country
       on conflict (site_id, day, country) do update set
         impressions = excluded.impressions, clicks = excluded.clicks, ad_requests = excluded.ad_requests,
         revenue_micros = excluded.revenue_micros, ad_unit_id = excluded.ad_unit_id, updated_at = excluded.updated_at
       where (r.impressions, r.clicks, r.ad_requests, r.revenue_micros, r.ad_unit_id) is distinct from
             (excluded.impressions, excluded.clicks, excluded.ad_requests, excluded.revenue_micros, excluded.ad_unit_id)
       returning 1)
     select count(*) as written from upserted`,
  );
  // Alerts are evaluated for the days and sites that changed, after the commit (lib/jobs): the staged rows left.
  if (Number(counts.written) > 0) await session.query(queueRevenueWrittenSql(STAGING));
  // The changed rows as counted above: one another import wrote or removed meanwhile may be counted on the other side.
  const updated = Math.min(stored.changed, Number(counts.written));
  return { inserted: Number(counts.written) - updated, updated };
}
