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
import { env } from '@/lib/platform/env';
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

/** Sees the text of each statement the app sends, through drizzle or a stream (tests of what queries say). */
export type QueryObserver = (sql: string) => void;

const loggerOf = (observe?: QueryObserver) => observe && { logQuery: (query: string) => observe(query) };

export async function openPglite(
  dataDir: string | undefined,
  options: { loadDataDir?: Blob; observe?: QueryObserver } = {},
): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  if (dataDir) fs.mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true });
  const { observe, ...pgliteOptions } = options;
  const client = await PGlite.create(dataDir ?? 'memory://', pgliteOptions);
  const db = drizzle(client, { schema, logger: loggerOf(observe) }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    bulk: pgliteBulk(client),
    stream: pgliteStream(client, observe),
    close: () => client.close(),
  };
}

interface PostgresOptions {
  max?: number;
  statementTimeoutMs?: number;
  applicationName?: string;
  /** Servers to try in order for each new connection, instead of the URL's: the URL gives the rest. */
  servers?: { host: string; port: number }[];
  /** Seconds a connection lives before it is replaced (postgres.js's default: 30 to 60 minutes). */
  maxLifetimeSeconds?: number;
  observe?: QueryObserver;
}

export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<Database> {
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const { servers } = options;
  const client = postgres(url, {
    ...(servers && { host: servers.map((s) => s.host) as never, port: servers.map((s) => s.port) as never }),
    ...(options.maxLifetimeSeconds && { max_lifetime: options.maxLifetimeSeconds }),
    max: options.max ?? DATABASE_POOL_SIZE,
    // false: every statement unnamed, the prepared ones of db/prepared.ts included (for a transaction pooler).
    prepare: env().DATABASE_PREPARED_STATEMENTS,
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
      // No JIT: compiling a report's aggregate costs more than it saves at this size (by-country for 50 sites
      // of big@example.com: about 380 ms with JIT, 270 ms without, EXPLAIN ANALYZE warm).
      jit: 'off',
    },
  });
  const db = drizzle(client, { schema, logger: loggerOf(options.observe) }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    url,
    bulk: postgresBulk(client),
    stream: postgresStream(client, options.observe),
    close: () => client.end({ timeout: 5 }),
  };
}

const serverOf = (url: string) => {
  const { hostname, port } = new URL(url);
  return { host: decodeURIComponent(hostname).replace(/^\[(.*)\]$/, '$1'), port: Number(port || 5432) };
};

/**
 * The pool reads go to: a streaming replica of the primary, for reads only (never migrated, never written).
 * Each new connection tries the replica, then the primary (postgres.js tries its servers in order), so reads
 * carry on against the primary while the replica is down; connections are renewed every minute, so they return
 * to the replica once it is back. The primary must take the replica's credentials, as a streaming replica's do.
 */
export function openReplica(replicaUrl: string, primaryUrl: string): Promise<Database> {
  return openPostgres(replicaUrl, {
    applicationName: 'publisher-portal-reads',
    servers: [serverOf(replicaUrl), serverOf(primaryUrl)],
    maxLifetimeSeconds: 60,
  });
}
