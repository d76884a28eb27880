/**
 * Runs once when the server starts: opening the database applies pending migrations and, for a new
 * embedded database, seeds the demo data, so the first visitor does not wait for it. A server that cannot
 * tell its callers apart (neither our own server nor TRUST_PROXY names them) says so.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { getDatabase } = await import('./db/client');
  const { log } = await import('./lib/log');
  const { unknownAddressWarning } = await import('./lib/http/client-address');
  const warning = unknownAddressWarning();
  if (warning) log.warn(warning);
  try {
    const database = await getDatabase();
    log.info({ database: database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL' }, 'database ready');
  } catch (err) {
    // The server still starts; requests retry opening the database and answer with a clear error.
    log.error({ err }, 'could not open the database');
  }
}
