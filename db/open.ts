/** Opening a database: embedded PGlite or a PostgreSQL pool, each with its bulk writer and its cursor reader. */
import fs from 'node:fs';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';
import {
  DATABASE_POOL_SIZE,
  IDLE_IN_TRANSACTION_TIMEOUT_MS,
  REQUEST_STATEMENT_TIMEOUT_MS,
} from '@/lib/platform/limits';
import { pgliteBulk, postgresBulk, type RunBulk } from './bulk';
import { pgliteStream, postgresStream, type RunStream } from './stream';
export type { RunStream } from './stream';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A transaction's handle, or the database itself: what a write that joins its caller's transaction takes. */
export type Tx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The server's URL, for PostgreSQL. */
  url?: string;
  /** A transaction with COPY, for bulk writes (db/bulk.ts). */
  bulk: RunBulk;
  /** A large read in constant memory from one snapshot, batch by batch from a cursor (db/stream.ts). */
  stream: RunStream;
  close(): Promise<void>;
}

export async function openPglite(dataDir: string | undefined, options: { loadDataDir?: Blob } = {}): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  if (dataDir) fs.mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true });
  const client = await PGlite.create(dataDir ?? 'memory://', options);
  const db = drizzle(client, { schema }) as unknown as Db;
  return { db, kind: 'pglite', bulk: pgliteBulk(client), stream: pgliteStream(client), close: () => client.close() };
}

export async function openPostgres(
  url: string,
  options: { max?: number; statementTimeoutMs?: number; applicationName?: string } = {},
): Promise<Database> {
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const client = postgres(url, {
    max: options.max ?? DATABASE_POOL_SIZE,
    onnotice: () => {},
    connect_timeout: 5,
    // After a failed connection postgres.js waits before the next try, by default up to 20 s: requests would
    // still fail that long after the database is back. Half a second at most between tries instead.
    backoff: (failures: number) => Math.min(0.05 * failures, 0.5),
    // No catalog query of array types on each new connection: postgres.js drops that query's promise, so a
    // connection reset or cancelled while it runs becomes an unhandled rejection that ends the process
    // (porsager/postgres#1192, #1223; CI's outage test hit it). Nothing needs those types: drizzle writes and
    // reads array columns as array literals itself, and our own SQL passes arrays as literals (db/seed.ts).
    fetch_types: false,
    // random_page_cost 1.1 (the usual SSD setting) instead of 4 (spinning disks): with 4, the planner
    // estimates the rollup's index too dear and scans the whole table instead (62 ms instead of 6).
    connection: {
      application_name: options.applicationName ?? 'publisher-portal',
      statement_timeout: options.statementTimeoutMs ?? REQUEST_STATEMENT_TIMEOUT_MS,
      // A transaction left idle (our code failed to end it) is ended by PostgreSQL, never held for good; a
      // command (statement timeout 0) may legitimately wait on its operator, so it has neither bound.
      idle_in_transaction_session_timeout: options.statementTimeoutMs === 0 ? 0 : IDLE_IN_TRANSACTION_TIMEOUT_MS,
      TimeZone: 'UTC',
      random_page_cost: 1.1,
    },
  });
  const db = drizzle(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    url,
    bulk: postgresBulk(client),
    stream: postgresStream(client),
    close: () => client.end({ timeout: 5 }),
  };
}
