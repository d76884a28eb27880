import fs from 'node:fs';
import { env } from '@/lib/platform/env';

/**
 * Whether this deployment has somewhere to keep its data. Without DATABASE_URL the embedded database needs a
 * writable folder (PGLITE_DIR); a Vercel deployment's file system is read-only, so a preview with no database
 * attached has neither. Then every page and API call answers 503 with this message instead of crashing.
 * Worked out once per configuration: a file system's mount does not change while the process runs.
 */
let cached: { configuration: string; problem: string | null } | undefined;

export function databaseMisconfiguration(): string | null {
  const { DATABASE_URL, PGLITE_DIR } = env();
  if (DATABASE_URL) return null;
  if (cached?.configuration !== PGLITE_DIR) cached = { configuration: PGLITE_DIR, problem: findProblem(PGLITE_DIR) };
  return cached.problem;
}

function findProblem(PGLITE_DIR: string): string | null {
  try {
    fs.mkdirSync(PGLITE_DIR, { recursive: true });
    fs.accessSync(PGLITE_DIR, fs.constants.W_OK);
    return null;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    return (
      `No database is configured: DATABASE_URL is not set, and the embedded database's folder ` +
      `(PGLITE_DIR=${PGLITE_DIR}) cannot be written here (${code}; a Vercel deployment's file system is ` +
      `read-only). Set DATABASE_URL to a PostgreSQL database.`
    );
  }
}
