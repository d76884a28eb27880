import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { openPglite } from '@/db/client';
import { migrate } from '@/db/migrate';
import { seedDemo } from '@/db/seed';
import { seedDemoPaymentHistory } from '@/lib/payments';

/**
 * The PGlite test template: a data directory, migrated and seeded with the demo data, as a tarball that
 * each integration test file loads into its own in-memory PGlite. Building one costs ~6 s, so it is cached
 * under node_modules/.cache, keyed by everything that shapes it, including the day (the data ends today).
 */

const root = process.cwd();
const cacheDir = path.join(root, 'node_modules', '.cache', 'portal-tests');

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function templateKey(today: string): string {
  const inputs = [
    ...filesUnder(path.join(root, 'db', 'migrations')),
    ...fs
      .readdirSync(path.join(root, 'db'))
      .filter((name) => /^seed.*\.ts$/.test(name))
      .map((name) => path.join(root, 'db', name)),
    path.join(root, 'lib', 'shared', 'countries.ts'),
    // The demo's payments history is written by the payments domain.
    ...filesUnder(path.join(root, 'lib', 'payments')),
    path.join(root, 'tests', 'support', 'pglite-template.ts'),
    // A data directory is only readable by the PGlite (PostgreSQL) version that wrote it.
    path.join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json'),
  ].sort();
  const hash = createHash('sha256').update(today);
  for (const file of inputs) hash.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

/**
 * Drops the WAL segments PostgreSQL itself would delete or recycle after a checkpoint: those before the
 * checkpoint's redo point and the pre-allocated ones after the insert position. Loading ~30 MB less makes
 * every test file open ~0.2 s faster. Copies the tar (ustar) records verbatim.
 */
function trimWal(tar: Buffer, firstNeeded: string, lastNeeded: string): Buffer {
  const kept: Buffer[] = [];
  let offset = 0;
  while (offset + 512 <= tar.length && tar[offset] !== 0) {
    const name = tar.toString('latin1', offset, offset + 100).replace(/\0[^]*$/, '');
    const size = Number.parseInt(tar.toString('latin1', offset + 124, offset + 136).replace(/\0[^]*$/, ''), 8);
    if (!Number.isInteger(size)) return tar; // not the format expected: keep everything
    const end = offset + 512 + Math.ceil(size / 512) * 512;
    const segment = /pg_wal\/([0-9A-F]{24})$/.exec(name)?.[1];
    if (!segment || (segment >= firstNeeded && segment <= lastNeeded)) kept.push(tar.subarray(offset, end));
    offset = end;
  }
  kept.push(Buffer.alloc(1024)); // end-of-archive marker
  return Buffer.concat(kept);
}

/** Path of the cached template tarball for `today`, building it first if needed. */
export async function pgliteTemplate(today: string): Promise<string> {
  const file = path.join(cacheDir, `template-${templateKey(today)}.tar`);
  if (fs.existsSync(file)) return file;

  const started = performance.now();
  const database = await openPglite(undefined);
  let tar: Buffer;
  try {
    await migrate(database);
    await seedDemo(database.db, { today });
    await seedDemoPaymentHistory({ today, db: database.db });
    const client = (database.db as unknown as { $client: PGlite }).$client;
    // Without a checkpoint every test file would replay the seed's WAL when it opens (~0.4 s each).
    await client.query('CHECKPOINT');
    const { rows } = await client.query<{ redo: string; current: string }>(
      `SELECT pg_walfile_name(redo_lsn) AS redo, pg_walfile_name(pg_current_wal_insert_lsn()) AS current
       FROM pg_control_checkpoint()`,
    );
    // Uncompressed: gunzip would add ~0.3 s to every test file's start to save ~50 MB of disk.
    const dump = Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer());
    tar = trimWal(dump, rows[0].redo, rows[0].current);
  } finally {
    await database.close();
  }

  fs.mkdirSync(cacheDir, { recursive: true });
  // Written aside and renamed, so a concurrent run never reads half a file; older templates go.
  const partial = `${file}.${process.pid}.partial`;
  fs.writeFileSync(partial, tar);
  fs.renameSync(partial, file);
  for (const name of fs.readdirSync(cacheDir)) {
    if (name.startsWith('template-') && path.join(cacheDir, name) !== file) {
      fs.rmSync(path.join(cacheDir, name), { force: true });
    }
  }
  console.log(`[tests] built the PGlite test template in ${Math.round(performance.now() - started)} ms`);
  return file;
}
