import { type Database, openConfiguredDatabase, setDatabase } from '@/db/client';
import { isLoopbackHost } from '@/lib/identity';
import { env } from '@/lib/platform/env';
import { settleBackgroundTasks } from '@/lib/http/background';

/**
 * How operator commands reach the configured database: the same DATABASE_URL / PGLITE_DIR rules as the
 * server (db/client.ts), so a command always acts on the data the running app shows.
 */

/**
 * The hosts a postgres:// URL connects to, read the way postgres.js reads them (several hosts separated
 * by commas; an empty host means PGHOST or localhost; a host starting with "/" is a unix socket folder).
 */
export function databaseHosts(url: string): string[] {
  const authority = url.slice(url.indexOf('://') + 3).split(/[?/]/)[0];
  const hosts = decodeURIComponent(authority.slice(authority.indexOf('@') + 1)) || process.env.PGHOST || 'localhost';
  return hosts.split(',').map((host) => {
    if (host.startsWith('/')) return host;
    if (host.startsWith('[')) return host.slice(1, host.indexOf(']'));
    return host.split(':')[0];
  });
}

/** True when every host of the URL is this machine: loopback names and addresses, or a unix socket. */
export function isLocalDatabaseUrl(url: string): boolean {
  return databaseHosts(url).every((host) => host.startsWith('/') || isLoopbackHost(host));
}

export interface DatabaseTarget {
  /** For messages; never includes the password. */
  description: string;
  /** The PostgreSQL URL; absent for the embedded database. */
  url?: string;
}

export function configuredDatabaseTarget(): DatabaseTarget {
  const { DATABASE_URL, PGLITE_DIR } = env();
  if (!DATABASE_URL) return { description: `embedded PGlite in ${PGLITE_DIR}` };
  const database =
    DATABASE_URL.slice(DATABASE_URL.indexOf('://') + 3)
      .split('?')[0]
      .split('/')[1] || '(default)';
  return {
    description: `PostgreSQL database "${decodeURIComponent(database)}" on ${databaseHosts(DATABASE_URL).join(', ')}`,
    url: DATABASE_URL,
  };
}

/**
 * Opens the configured database (migrated; the embedded one locked against a running server and seeded if
 * it is new), runs `work`, and always closes it so the process can exit.
 * A running server holding the embedded database makes this throw EmbeddedDatabaseBusyError, before
 * anything is changed.
 *
 * The handle is also installed as the process's database, so services called by `work` (which use
 * getDb()) share it instead of opening the embedded folder a second time.
 */
export async function withDatabase<T>(
  work: (database: Database) => Promise<T>,
  options: { seedIfEmpty?: boolean } = {},
): Promise<T> {
  // Commands are not requests: a seed or a large delete may run for minutes (0: no statement timeout).
  const database = await openConfiguredDatabase({ ...options, statementTimeoutMs: 0 });
  setDatabase(database);
  try {
    return await work(database);
  } finally {
    // Background writes (e.g. lastUsedAt) must land before the handle closes.
    await settleBackgroundTasks();
    setDatabase(undefined);
    await database.close();
  }
}
