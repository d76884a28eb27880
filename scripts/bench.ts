/**
 * `npm run bench [-- --sites N --iterations K]`: times every report through the real route handlers
 * (wrapper, auth, grammar, services, SQL) on the demo data, and prints each as a ratio of the cheapest
 * authenticated call (GET /api/v1/sites) measured in the same run, so figures compare across machines.
 *
 * --sites N adds a synthetic publisher with N sites × 365 days × 45 countries to show how reports scale
 * with an account's size. BENCH_DATABASE_URL runs it on PostgreSQL (that database is re-seeded!);
 * otherwise it uses an in-memory PGlite.
 */
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { type Database, migrate, openPglite, openPostgres, setDatabase } from '@/db/client';
import { users } from '@/db/schema';
import { DEMO_IDS, seedDemo } from '@/db/seed';
import { addDays, todayUtc } from '@/lib/query';
import { setRateLimitStore } from '@/lib/ratelimit';
import { createApiKey } from '@/lib/services/api-keys';
import { callApi } from '../tests/support/api';

const { values } = parseArgs({
  options: { sites: { type: 'string', default: '0' }, iterations: { type: 'string', default: '30' } },
});
const syntheticSites = Number(values.sites);
const iterations = Number(values.iterations);

async function open(): Promise<Database> {
  const url = process.env.BENCH_DATABASE_URL;
  const database = url ? await openPostgres(url) : await openPglite(undefined);
  await migrate(database);
  await seedDemo(database.db);
  return database;
}

/** A big account built inside the database (generate_series), so it takes seconds, not minutes. */
async function addSyntheticPublisher(database: Database, sites: number): Promise<string> {
  const [{ id: userId }] = await database.db
    .insert(users)
    .values({ email: 'bench@example.com', name: 'Bench Publisher', role: 'publisher' })
    .returning({ id: users.id });
  await database.db.execute(sql`
    insert into sites (user_id, name, url, framework, status)
    select ${userId}::uuid, 'Bench site ' || n, 'https://bench' || n || '.example', 'phaser', 'live'
    from generate_series(1, ${sites}) as n`);
  const countries = 'US GB DE FR CA AU JP KR BR IN ID PH VN TR MX EG NL SE NO DK CH ES IT PL AR CL CO PE ZA NG KE SA AE IL RU UA RO CZ HU PT GR TH MY SG NZ'.split(' ');
  // One statement of N × 16k rows outlasts the server connection's 15 s statement_timeout on PostgreSQL.
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`set local statement_timeout = 0`);
    await tx.execute(sql`
      insert into revenue_daily (site_id, user_id, day, country, impressions, clicks, ad_requests, revenue_micros)
      select s.id, s.user_id, d::date, c, 800 + (hashtext(s.id::text || d::text || c) & 1023), 10, 1200, 2500000 + (hashtext(c || d::text) & 1048575)
      from sites s,
           generate_series(${addDays(todayUtc(), -364)}::date, ${todayUtc()}::date, interval '1 day') as d,
           unnest(string_to_array(${countries.join(' ')}, ' ')) as c
      where s.user_id = ${userId}::uuid`);
    await tx.execute(sql`analyze`);
  });
  return userId;
}

async function keyFor(userId: string): Promise<string> {
  const created = await createApiKey({ userId, role: 'publisher', siteScope: null, via: 'operator' }, { label: 'bench' });
  return created.apiKey;
}

/** Median and 95th percentile in ms of `iterations` calls, after two warm-up calls. */
async function time(path: string, key: string) {
  const samples: number[] = [];
  for (let i = 0; i < iterations + 2; i++) {
    setRateLimitStore(undefined); // the benchmark is not about the limiter: fresh budget each call
    const start = performance.now();
    const result = await callApi('GET', path, { key });
    const ms = performance.now() - start;
    if (result.status !== 200) throw new Error(`${path} answered ${result.status}: ${result.text.slice(0, 200)}`);
    if (i >= 2) samples.push(ms);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)], p95: samples[Math.floor(samples.length * 0.95) - 1] };
}

const today = todayUtc();
const yearAgo = addDays(today, -364);
const CASES: [string, string][] = [
  ['sites (baseline)', '/api/v1/sites'],
  ['totals, default 30 days', '/api/v1/reports/totals'],
  ['totals, 365 days', `/api/v1/reports/totals?fromDate=${yearAgo}&toDate=${today}`],
  ['by-country, 30 days', '/api/v1/reports/by-country'],
  ['by-country, 365 days, sorted', `/api/v1/reports/by-country?fromDate=${yearAgo}&toDate=${today}&sortBy=revenueAmount&sortDirection=desc`],
  ['by-country, 365 days, Filter cpm>2', `/api/v1/reports/by-country?fromDate=${yearAgo}&toDate=${today}&Filter=cpm>2`],
  ['countries, page 1', '/api/v1/reports/countries'],
  ['countries, page 1, 1000 rows', '/api/v1/reports/countries?pageSize=1000'],
  ['countries, deep page 2000', '/api/v1/reports/countries?page=2000'],
  ['countries, last 7 days', `/api/v1/reports/countries?Filter=createdAt>=${addDays(today, -6)}`],
  ['countries, sorted by revenue', '/api/v1/reports/countries?sortBy=revenueAmount&sortDirection=desc'],
  ['countries, Search "united"', '/api/v1/reports/countries?Search=united'],
];

async function report(label: string, key: string) {
  console.log(`\n${label}`);
  console.log(`${'case'.padEnd(38)}${'median ms'.padStart(11)}${'p95 ms'.padStart(9)}${'× baseline'.padStart(12)}`);
  let baseline = 0;
  for (const [name, path] of CASES) {
    const { median, p95 } = await time(path, key);
    baseline ||= median;
    console.log(`${name.padEnd(38)}${median.toFixed(1).padStart(11)}${p95.toFixed(1).padStart(9)}${(median / baseline).toFixed(1).padStart(12)}`);
  }
}

const database = await open();
setDatabase(database);
try {
  const kind = database.kind === 'pglite' ? 'PGlite (in memory)' : 'PostgreSQL';
  console.log(`Benchmark on ${kind}, ${iterations} iterations per case, through the route handlers.`);
  await report('demo@example.com: 5 sites × 365 days × 48 countries', await keyFor(DEMO_IDS.users.demo));
  if (syntheticSites > 0) {
    const started = performance.now();
    const userId = await addSyntheticPublisher(database, syntheticSites);
    const rows = syntheticSites * 365 * 45;
    console.log(`\n(synthetic account: ${rows.toLocaleString('en-US')} rows generated in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
    await report(`bench@example.com: ${syntheticSites} sites × 365 days × 45 countries`, await keyFor(userId));
  }
} finally {
  setDatabase(undefined);
  await database.close();
}
