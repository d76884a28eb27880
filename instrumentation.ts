/**
 * Runs once when the server starts: opening the database applies pending migrations and, for a new
 * embedded database, seeds the demo data, so the first visitor does not wait for it.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { getDatabase } = await import('./db/client');
  try {
    const database = await getDatabase();
    console.log(`[db] ready (${database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'})`);
  } catch (err) {
    // The server still starts; requests retry opening the database and answer with a clear error.
    console.error('[db] could not open the database:', (err as Error).message);
  }
}
