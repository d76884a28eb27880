/**
 * Runs once when the server starts (`npm start`, `next start`, each Vercel instance): opening the database
 * applies pending migrations and, for a new embedded database, seeds the demo data, so the first visitor does
 * not wait for it. Then the start-up checks: a server others can reach refuses to run with the demo passwords
 * (lib/demo-gate.ts), and a server that cannot tell its callers apart says so.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { log } = await import('./lib/log');
  const { unknownAddressWarning } = await import('./lib/http/client-address');
  const warning = unknownAddressWarning();
  if (warning) log.warn(warning);
  await openThenCheck();
}

const RETRY_MS = 5_000;

async function openThenCheck(attempt = 1): Promise<void> {
  const { getDatabase } = await import('./db/client');
  const { demoRefusal } = await import('./lib/demo-gate');
  const { log } = await import('./lib/log');
  let refusal: string | null;
  try {
    const database = await getDatabase();
    log.info({ database: database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL' }, 'database ready');
    // `next dev` says nowhere where it listens (`npm run dev` keeps it on 127.0.0.1): the gate is for servers.
    refusal = process.env.NODE_ENV === 'development' ? null : await demoRefusal();
  } catch (err) {
    // The server still starts; requests retry opening the database and answer with a clear error. The demo
    // check waits for the database, so that it also holds for a server started while its database was away.
    if (attempt === 1) log.error({ err }, 'could not open the database');
    setTimeout(() => void openThenCheck(attempt + 1), RETRY_MS).unref();
    return;
  }
  if (refusal) {
    // One plain line for whoever started the server, then no server.
    console.error(refusal);
    process.exit(1);
  }
}
