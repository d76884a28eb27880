/**
 * Revenue alerts after an import (lib/alerts/revenue.ts through lib/jobs): the import queues the evaluation in its
 * transaction, the runner does it after the commit; a day that leaves its usual band is stored once, naming the
 * site and what drove it; the same file again, and a normal day, store nothing.
 */
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { COMMAND_LINE } from '@/lib/access/principal';
import { runDueJobs } from '@/lib/jobs';
import { addDays, eachDay, todayUtc } from '@/lib/query';
import { formatDay } from '@/lib/shared/format';
import { importRevenue } from '@/lib/revenue-in/import';
import { useTestDatabase } from '../support/db';
import { createPublisher, createRevenue, createSite } from '../support/factories';
import { sqlRows } from './reports-helpers';

const t = useTestDatabase();

/** Today (the runner's clock is the real one: jobs are due by it), and the last complete Tuesday. */
const TODAY = todayUtc();
const TUESDAY = [1, 2, 3, 4, 5, 6, 7].map((n) => addDays(TODAY, -n)).find((d) => new Date(d).getUTCDay() === 2)!;
const NOW = () => new Date();

const HEADER = 'day,siteId,country,impressions,clicks,adRequests,revenue,adUnitId';
const usd = (n: number) => Math.round(n * 1e6);
/** Each site's usual day in US and DE, with a little noise by day so the band has a width. */
const USUAL = { US: 80, DE: 20 } as const;
/** The sites' sizes: Puzzle Quest earns most, so that its drop moves the account. */
const SCALES = [1, 0.5, 0.25];
const wobble = (day: string) => 1 + ((Number(day.slice(8, 10)) % 5) - 2) / 100;

async function accountWithHistory() {
  const owner = await createPublisher(t.db);
  const sites = [];
  for (const [i, name] of ['Puzzle Quest', 'Space Race', 'Word Hunt'].entries()) {
    const site = await createSite(t.db, owner.id, { name, status: 'live' });
    sites.push(site);
    const scale = SCALES[i];
    await createRevenue(
      t.db,
      site.id,
      eachDay(addDays(TUESDAY, -63), addDays(TUESDAY, -1)).flatMap((day) =>
        Object.entries(USUAL).map(([country, revenue]) => ({
          day,
          country,
          revenueMicros: usd(revenue * scale * wobble(day)),
          impressions: 1000,
          adRequests: 1200,
        })),
      ),
    );
  }
  return { owner, sites };
}

/** The file of one day: each site's usual revenue times its factor. */
const dayFile = (sites: { id: string }[], factors: number[]) =>
  [
    HEADER,
    ...sites.flatMap((site, i) =>
      Object.entries(USUAL).map(
        ([country, revenue]) =>
          `${TUESDAY},${site.id},${country},1000,0,1200,${(revenue * SCALES[i] * factors[i]).toFixed(6)},`,
      ),
    ),
  ].join('\n') + '\n';

/** Imports the file, then runs the jobs it queued: the alerts' evaluation and `data.updated` for webhooks. */
const importDay = async (file: string) => {
  const result = await importRevenue(COMMAND_LINE, [file], { format: 'csv', today: TODAY });
  expect(result.ok).toBe(true);
  return runDueJobs({ now: NOW });
};

const alertsOf = (accountId: string) =>
  sqlRows<{ kind: string; site_id: string | null; day: string; message: string; details: Record<string, unknown> }>(
    t.db,
    sql`select kind, site_id, day::text as day, message, details from alerts where account_id = ${accountId}
        order by site_id nulls first`,
  );

// Jobs other files left due (a worker's PostgreSQL database serves several files) are done first: counts are ours.
beforeEach(async () => void (await runDueJobs()));

describe('revenue alerts after an import', () => {
  it('stores one revenue.drop for a site at 40 % of its usual Tuesday, naming it and the countries behind it', async () => {
    const { owner, sites } = await accountWithHistory();
    const [puzzle] = sites;
    const file = dayFile(sites, [0.4, 1, 1]);
    expect(await importDay(file)).toMatchObject({ done: 2, failed: 0 });

    const found = await alertsOf(owner.id);
    const siteDrops = found.filter((a) => a.kind === 'revenue.drop' && a.site_id === puzzle.id && a.day === TUESDAY);
    expect(siteDrops).toHaveLength(1);
    expect(found.filter((a) => a.site_id && a.site_id !== puzzle.id)).toEqual([]);
    const [drop] = siteDrops;
    const on = formatDay(TUESDAY, { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' });
    expect(drop.message).toMatch(
      new RegExp(`^Puzzle Quest earned \\$40\\.00 on ${on}, 60\\.\\d% below the usual \\$100\\.\\d\\d`),
    );
    expect(drop.message).toContain('United States');
    expect(drop.details).toMatchObject({ actual: 40 });
    const drivers = drop.details.drivers as { kind: string; id: string; difference: number }[];
    expect(drivers.map((d) => [d.kind, d.id])).toEqual([
      ['country', 'US'],
      ['country', 'DE'],
    ]);
    expect(drivers[0].difference).toBeCloseTo(32 - 80 * wobble('2026-11-17'), 2);

    // The account as a whole fell too (175 → 115), and its alert names Puzzle Quest as the cause.
    const account = found.find((a) => a.site_id === null)!;
    expect(account.kind).toBe('revenue.drop');
    expect((account.details.drivers as { name: string }[])[0].name).toBe('Puzzle Quest');

    // The same file again changes nothing: no job, no alert.
    expect(await importDay(file)).toMatchObject({ done: 0 });
    // A correction of another site's day is judged again; the drop is not stored twice.
    expect(await importDay(dayFile(sites, [0.4, 1.01, 1]))).toMatchObject({ done: 2 });
    expect(await alertsOf(owner.id)).toEqual(found);
  });

  it('stores nothing for an ordinary day', async () => {
    const { owner, sites } = await accountWithHistory();
    expect(await importDay(dayFile(sites, [1.05, 0.97, 1]))).toMatchObject({ done: 2 });
    expect(await alertsOf(owner.id)).toEqual([]);
  });

  it('judges neither today (incomplete) nor days older than the lookback', async () => {
    const { owner, sites } = await accountWithHistory();
    const old = dayFile(sites, [0.1, 0.1, 0.1]).replaceAll(TUESDAY, addDays(TUESDAY, -7));
    // Judged as of a month later: the day is past the lookback.
    const result = await importRevenue(COMMAND_LINE, [old], { format: 'csv' });
    expect(result.ok).toBe(true);
    await runDueJobs({ now: () => new Date(Date.now() + 30 * 86_400_000) });
    // Judged as of that Tuesday itself: the day is not complete.
    await importRevenue(COMMAND_LINE, [dayFile(sites, [0.1, 0.1, 0.1])], { format: 'csv' });
    await runDueJobs({ now: () => new Date(`${TUESDAY}T18:00:00Z`) });
    expect(await alertsOf(owner.id)).toEqual([]);
  });
});
