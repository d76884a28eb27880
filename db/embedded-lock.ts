import fs from 'node:fs';
import path from 'node:path';

/**
 * PGlite is a single-process database: two processes opening the same folder would corrupt it.
 * Whoever opens the embedded database writes its pid next to the folder; a second process that finds a
 * live pid there refuses to open it instead of damaging it. A lock left by a dead process is taken over.
 */
export class EmbeddedDatabaseBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by another process (pid ${pid}), probably a running ` +
        `"npm start". Stop it first, or point DATABASE_URL at a PostgreSQL server.`,
    );
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function lockPathFor(dataDir: string) {
  return `${path.resolve(dataDir)}.lock`;
}

/** Returns the pid holding the folder, or null when nobody (alive) holds it. */
function embeddedLockHolder(dataDir: string): number | null {
  try {
    const pid = Number(fs.readFileSync(lockPathFor(dataDir), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid) ? pid : null;
  } catch {
    return null;
  }
}

export function acquireEmbeddedLock(dataDir: string): () => void {
  const holder = embeddedLockHolder(dataDir);
  if (holder !== null) throw new EmbeddedDatabaseBusyError(dataDir, holder);
  const lockPath = lockPathFor(dataDir);
  fs.mkdirSync(path.dirname(lockPath), { recursive: true });
  fs.writeFileSync(lockPath, String(process.pid));
  const release = () => {
    try {
      if (fs.readFileSync(lockPath, 'utf8').trim() === String(process.pid)) fs.unlinkSync(lockPath);
    } catch {
      // already gone
    }
  };
  process.once('exit', release);
  return release;
}
