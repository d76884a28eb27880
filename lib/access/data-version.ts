import { eq } from 'drizzle-orm';
import { getReadDb, readsFromReplica } from '@/db/client';
import { users } from '@/db/schema';

/** An account's data version (users.dataVersion): every write that changes its figures bumps it. */
export interface DataVersion {
  version: number;
  changedAt: Date;
}

/**
 * The account's data version where its reports are read: on a replica, the version the replica holds, so a
 * validator never names newer data than the answer it goes with.
 */
export async function readDataVersion(accountId: string): Promise<DataVersion> {
  const db = await getReadDb();
  const [row] = await db
    .select({ version: users.dataVersion, changedAt: users.dataChangedAt })
    .from(users)
    .where(eq(users.id, accountId));
  // An account deleted a moment ago has no figures: version 0 matches no tag ever given out.
  return row ?? { version: 0, changedAt: new Date(0) };
}

/**
 * The version for a request's validators: the one its key's lookup read from the primary, unless reports are read
 * from a replica, whose answers go with the replica's own version.
 */
export async function dataVersionForReads(accountId: string, fromPrimary: DataVersion): Promise<DataVersion> {
  return readsFromReplica() ? readDataVersion(accountId) : fromPrimary;
}
