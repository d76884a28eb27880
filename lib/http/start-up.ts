import { demoRefusal } from '@/lib/identity';
import { unknownAddressWarning } from '@/lib/http/client-address';
import { log } from '@/lib/platform/log';
import { seedDemoPaymentHistory } from '@/lib/payments';

/**
 * The server's start (instrumentation.ts): opening the database applies pending migrations and, for a new
 * embedded database, seeds the demo data (and its payments history), so the first visitor does not wait for it. Then the checks: a
 * server that cannot tell its callers apart says so, and a server that others can reach refuses to run with
 * the demo passwords (lib/identity/demo-gate.ts).
 */
export async function startUp(openDatabase: OpenDatabase): Promise<void> {
  const warning = unknownAddressWarning();
  if (warning) log.warn(warning);
  await openThenCheck(openDatabase);
}

/**
 * db/client.ts's getDatabase, handed in by instrumentation.ts: lib/http may not import db/client.ts (only the
 * domains read and write the database).
 */
type OpenDatabase = () => Promise<{ kind: 'pglite' | 'postgres' }>;

const RETRY_MS = 5_000;

async function openThenCheck(openDatabase: OpenDatabase, attempt = 1): Promise<void> {
  let refusal: string | null;
  try {
    const database = await openDatabase();
    await seedDemoPaymentHistory();
    log.info({ database: database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL' }, 'database ready');
    // `next dev` says nowhere where it listens (`npm run dev` keeps it on 127.0.0.1): the gate is for servers.
    refusal = process.env.NODE_ENV === 'development' ? null : await demoRefusal();
  } catch (err) {
    // The server still starts; requests retry opening the database and answer with a clear error. The demo
    // check waits for the database, so that it also holds for a server started while its database was away.
    if (attempt === 1) log.error({ err }, 'could not open the database');
    setTimeout(() => void openThenCheck(openDatabase, attempt + 1), RETRY_MS).unref();
    return;
  }
  if (refusal) {
    // One plain line for whoever started the server, then no server.
    console.error(refusal);
    process.exit(1);
  }
}
