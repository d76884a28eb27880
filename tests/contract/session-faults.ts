/**
 * The documented statuses that no request to a healthy server gets: 503 and 500. Two more production servers
 * answer them for real, with nothing in the application changed for the test:
 * - one whose PostgreSQL never answers (nothing listens at its port): every operation that reads the
 *   database answers 503 (the document and /health read none: they stay up);
 * - one on an embedded database whose `api_keys` table was renamed after the demo data was written: checking
 *   any key fails with an error the server does not expect, a 500.
 * Each is asked, through Prism, every operation's first successful request of the main session again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { readEnv, setEnv } from '@/lib/platform/env';
import { type BenchServer, freePort, startServer } from '../../scripts/bench/server';
import { withDatabase } from '../../scripts/open-database';
import { firstSuccesses, PUBLIC } from './session-budgets';
import type { Exchange } from './session-writes';

export interface FaultyServer {
  server: BenchServer;
  /** The status every request it is asked answers, and why, for the table. */
  status: 500 | 503;
  why: string;
  /** Which operations fail there. */
  fails: (operationId: string) => boolean;
  stop(): Promise<void>;
}

const serve = (port: number, database: { DATABASE_URL: string } | { PGLITE_DIR: string }) =>
  startServer({ port, database, rateLimitPerMinute: 1000, interrupted: () => false });

export async function startOutageServer(port: number): Promise<FaultyServer> {
  const nobody = await freePort();
  const server = await serve(port, { DATABASE_URL: `postgres://postgres@127.0.0.1:${nobody}/outage` });
  return {
    server,
    status: 503,
    why: 'the database does not answer',
    fails: (operationId) => !PUBLIC.has(operationId),
    stop: () => server.stop(),
  };
}

export async function startBrokenServer(port: number): Promise<FaultyServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-contract-broken-'));
  setEnv(readEnv({ ...process.env, DATABASE_URL: '', PGLITE_DIR: dataDir }));
  await withDatabase((database) => database.db.execute(sql`ALTER TABLE api_keys RENAME TO api_keys_moved`));
  const server = await serve(port, { PGLITE_DIR: dataDir });
  return {
    server,
    status: 500,
    why: 'the key table is gone',
    fails: (operationId) => !PUBLIC.has(operationId),
    async stop() {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Per operation that fails on `faulty`, the first request the main session expected to succeed, asked again. */
export function faultRequests(requests: Exchange[], faulty: FaultyServer): Exchange[] {
  return firstSuccesses(requests)
    .filter((e) => faulty.fails(e.operationId))
    .map((e) => ({ ...e, what: `${e.what}, ${faulty.why}`, expect: faulty.status }));
}
