/**
 * Two imports at once that name the same new site with --create-sites create it once, and both files' rows
 * land on it (lib/revenue-in/import.ts takes an advisory lock per owner for that). On PostgreSQL the
 * imports run on two connections of the pool, held at the same point so that they really overlap; the
 * embedded database has one connection, so there they take turns, and the outcome must be the same.
 */
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { COMMAND_LINE } from '@/lib/access/principal';
import { importRevenue } from '@/lib/revenue-in/import';
import { testDatabase, useTestDatabase } from '../support/db';
import { createPublisher } from '../support/factories';
import { sqlRows } from './reports-helpers';

const t = useTestDatabase();
const source = testDatabase();

const file = (name: string, day: string) =>
  `day,siteName,country,impressions,clicks,adRequests,revenue\n${day},${name},US,5,0,6,0.5\n`;

const importFor = (owner: string, name: string, day: string) =>
  importRevenue(COMMAND_LINE, [file(name, day)], { format: 'csv', owner, createSites: true });

async function outcome(ownerId: string, name: string) {
  const sites = await sqlRows<{ id: string }>(
    t.db,
    sql`select id from sites where user_id = ${ownerId} and name = ${name}`,
  );
  const rows = await sqlRows<{ site_id: string; day: string }>(
    t.db,
    sql`select d.site_id, d.day::text from revenue_daily d join sites s on s.id = d.site_id
        where s.user_id = ${ownerId} order by d.day`,
  );
  return { sites: sites.map((s) => s.id), rows };
}

/** Sessions of this database waiting for a lock (a table's or an advisory one). */
async function waitingForLocks(): Promise<number> {
  const [row] = await sqlRows<{ n: string }>(
    t.db,
    sql`select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
  );
  return Number(row.n);
}

describe('two imports creating the same site by name at once', () => {
  it('create one site, and both rows land on it', async () => {
    const owner = await createPublisher(t.db);
    const name = `Raced Game ${owner.id.slice(0, 8)}`;
    let imports: Promise<unknown>[];
    if (source.kind === 'postgres') {
      // A third connection holds the sites table against inserts, so both imports reach the point of creating
      // the site before either may. Without the owner's lock both then insert it, neither seeing the other's.
      const client = postgres(source.url, { max: 1, onnotice: () => {} });
      const holder = await client.reserve();
      try {
        await holder`begin`;
        await holder`lock table sites in share mode`;
        imports = [importFor(owner.email, name, '2025-11-01'), importFor(owner.email, name, '2025-11-02')];
        await expect.poll(waitingForLocks, { timeout: 15_000 }).toBe(2);
        await holder`commit`;
      } finally {
        holder.release();
        await client.end();
      }
    } else {
      imports = [importFor(owner.email, name, '2025-11-01'), importFor(owner.email, name, '2025-11-02')];
    }
    const results = await Promise.all(imports);
    expect(results.map((r) => (r as { ok: boolean }).ok)).toEqual([true, true]);
    const { sites, rows } = await outcome(owner.id, name);
    expect(sites).toHaveLength(1);
    expect(rows).toEqual([
      { site_id: sites[0], day: '2025-11-01' },
      { site_id: sites[0], day: '2025-11-02' },
    ]);
    const created = results.map((r) => (r as { summary: { sitesCreated: number } }).summary.sitesCreated);
    expect(created.sort()).toEqual([0, 1]);
  });
});
