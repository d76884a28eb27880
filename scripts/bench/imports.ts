/**
 * Imports timed in-process on the bench database, as `npm run import` runs them (parse, COPY, site checks,
 * upsert, rollup triggers): the account's most recent days of rows, written out as the CSV a network sends.
 * Those rows are first deleted, so the first import inserts every one of them ("new rows"); the same file is
 * then imported again and changes nothing ("unchanged rows"). Both are compared with what the table itself costs
 * for those rows: one plain INSERT of them, rolled back. The table ends as it began, and is vacuumed so the cases
 * that follow read it as before.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, gte, max, sql, type SQL } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { queryRows } from '@/db/raw-query';
import { revenueDaily } from '@/db/schema';
import { COMMAND_LINE } from '@/lib/access';
import { addDays } from '@/lib/query';
import { importRevenue, type ImportSummary } from '@/lib/revenue-in';
import { usdFromMicros } from '@/lib/shared/money';
import type { Dataset } from './fixtures';
import { rolledBack } from './rolled-back';

export interface ImportFigure {
  name: string;
  rows: number;
  inserted: number;
  updated: number;
  seconds: number;
  rowsPerSecond: number;
  /** Seconds as a multiple of the plain INSERT's of the same rows, measured in the same run. */
  vsPlainInsert: number;
}

/** Days of the account's rows in each import: about 200,000 rows for big@example.com. */
const DAYS = 10;

/** The account's rows of its last `DAYS` days. */
async function recentRows(userId: string) {
  const db = await getDb();
  const [{ last }] = await db.select({ last: max(revenueDaily.day) }).from(revenueDaily).where(eq(revenueDaily.userId, userId));
  return and(eq(revenueDaily.userId, userId), gte(revenueDaily.day, addDays(last!, -(DAYS - 1))));
}

/** Those rows as an import file, with revenue in USD as the API's export writes it (the import reads it back exactly). */
async function asCsv(recent: SQL | undefined): Promise<{ file: string; rows: number }> {
  const d = revenueDaily;
  const rows = await (await getDb())
    .select({ day: d.day, siteId: d.siteId, country: d.country, impressions: d.impressions, clicks: d.clicks, adRequests: d.adRequests, revenueMicros: d.revenueMicros })
    .from(d)
    .where(recent);
  const lines = rows.map((r) =>
    [r.day, r.siteId, r.country, r.impressions, r.clicks, r.adRequests, usdFromMicros(r.revenueMicros)].join(','),
  );
  const file = path.join(os.tmpdir(), `portal-bench-import-${process.pid}.csv`);
  fs.writeFileSync(file, `day,siteId,country,impressions,clicks,adRequests,revenue\n${lines.join('\n')}\n`);
  return { file, rows: rows.length };
}

/** The rows kept in a table of the bench database while it runs, for the plain INSERT (the pool's connections share it). */
const KEPT = sql.identifier('bench_import_rows');

type Timed = Omit<ImportFigure, 'vsPlainInsert'>;

/** The file read as `npm run import` reads it: streamed, in a file stream's chunks (lib/revenue-in/parse.ts). */
async function timedImport(name: string, file: string): Promise<Timed> {
  const started = performance.now();
  const result = await importRevenue(COMMAND_LINE, fs.createReadStream(file), { format: 'csv' });
  const seconds = (performance.now() - started) / 1000;
  if (!result.ok) throw new Error(`${name}: the import was refused: ${JSON.stringify(result.errors.slice(0, 3))}`);
  const { rows, inserted, updated }: ImportSummary = result.summary;
  return { name, rows, inserted, updated, seconds, rowsPerSecond: Math.round(rows / seconds) };
}

/**
 * What the table itself costs for the rows, the floor under any import of them: one INSERT … SELECT into
 * revenue_daily in the import's key order (its eight indexes, foreign key and rollup and data-version triggers),
 * rolled back. An import adds reading, checking, staging and comparing the file to it.
 */
async function timedPlainInsert(name: string, rows: number): Promise<Timed> {
  const seconds = await rolledBack(async (tx) => {
    const started = performance.now();
    await tx.execute(sql`insert into revenue_daily select * from ${KEPT} order by site_id, day, country`);
    return (performance.now() - started) / 1000;
  });
  return { name, rows, inserted: rows, updated: 0, seconds, rowsPerSecond: Math.round(rows / seconds) };
}

export async function benchImports(dataset: Dataset): Promise<ImportFigure[]> {
  const userId = dataset.principal.userId;
  const recent = await recentRows(userId);
  const { file, rows } = await asCsv(recent);
  const db = await getDb();
  // Never replaced: if it is there, a run stopped after the delete below and it holds the only copy of those rows.
  const [left] = await queryRows<{ kept: string | null }>(db, sql`select to_regclass('bench_import_rows')::text as kept`);
  if (left.kept) {
    throw new Error(
      "imports: a run stopped before putting the account's recent rows back; they are in bench_import_rows. " +
        'Put them back (insert into revenue_daily select * from bench_import_rows), then drop that table.',
    );
  }
  await db.execute(sql`create table ${KEPT} as select * from revenue_daily where ${recent}`);
  await db.delete(revenueDaily).where(recent);
  await vacuum();
  const plain = await timedPlainInsert(`the same rows in one plain INSERT into revenue_daily, rolled back`, rows);
  await vacuum();
  const imported = [
    await timedImport(`import ${DAYS} days of new rows`, file),
    await timedImport(`import the same ${DAYS} days again, unchanged`, file),
  ];
  fs.rmSync(file);
  await db.execute(sql`drop table ${KEPT}`);
  if (imported[0].inserted !== imported[0].rows || imported[1].inserted + imported[1].updated !== 0) {
    throw new Error(`imports: expected every row new, then none changed: ${JSON.stringify(imported)}`);
  }
  await vacuum();
  return [...imported, plain].map((f) => ({ ...f, vsPlainInsert: f.seconds / plain.seconds }));
}

/** Dead rows of the delete and the rollup's updates cleared, as autovacuum would; the statistics kept current. */
async function vacuum() {
  // Scripts' connections have no statement_timeout (scripts/open-database.ts), and VACUUM runs outside a transaction.
  await (await getDb()).execute(sql`vacuum (analyze) revenue_daily, revenue_rollup`);
}

/** The imports as the README's Markdown table. */
export function importTable(figures: ImportFigure[]): string {
  const n = (v: number) => v.toLocaleString('en-US');
  return [
    '| import (`npm run import`) | rows | inserted | seconds | rows/s | × the plain INSERT |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...figures.map(
      (f) =>
        `| ${f.name} | ${n(f.rows)} | ${n(f.inserted)} | ${f.seconds.toFixed(2)} | ${n(f.rowsPerSecond)} | ${f.vsPlainInsert.toFixed(2)} |`,
    ),
  ].join('\n');
}
