import { AppError } from '@/lib/shared/errors';

/**
 * What '@electric-sql/pglite' resolves to in a Vercel build (next.config.mjs). A deployment there uses
 * PostgreSQL, its functions having no disk for an embedded database; leaving PGlite out keeps its 20 MB of WASM
 * and data out of every function. Reaching it anyway (no DATABASE_URL, PGLITE_DIR somewhere writable) is a
 * deployment mistake, and the answer says how to mend it.
 */
const MISSING =
  'This Vercel build has no embedded database (next.config.mjs leaves it out): set DATABASE_URL to a ' +
  'PostgreSQL database.';

export class PGlite {
  static async create(): Promise<never> {
    throw new AppError('unavailable', MISSING);
  }

  constructor() {
    throw new AppError('unavailable', MISSING);
  }
}

/** drizzle-orm/pglite reads type ids from it when it runs a query, which it never will here. */
export const types = {};
