/**
 * Report results kept in this process per account data version (users.data_version, which every write that
 * changes an account's figures bumps in its own transaction). Publishers open the same views all day while
 * their data changes about once a day: a repeat is answered without the database, and identical requests that
 * arrive together are computed once. Correct by construction, never by expiry:
 *
 * - The key holds the account, its data version (and when it changed), the report and everything that shapes
 *   its result: the sites after the scope check, the resolved range, the country, filter, search and sort. A
 *   write bumps the version, so the next request misses and computes afresh; a different scope never shares.
 * - The version is read before the report is computed (readableSites), so a result is never older than its key's
 *   version: a write that lands in between only makes an entry fresher than its key says.
 * - With a replica (DATABASE_REPLICA_URL) reads may fall back to the primary and back again, so a result could
 *   be older than the version read a moment before: nothing is cached there; the replica carries the load.
 * - One cache per database (tests switch databases in one process), of REPORT_CACHE_MB megabytes (0: none);
 *   values are shared, so callers must not mutate what a report returns.
 */
import { LRUCache } from 'lru-cache';
import { getDatabase, readsFromReplica, type Database } from '@/db/client';
import { env } from '@/lib/platform/env';

/** What a scope check read about the account: its data version, for the key. */
export interface VersionedScope {
  userId: string;
  dataVersion: { version: number; changedAt: Date };
}

type Compute = () => Promise<object>;
type Results = LRUCache<string, object, Compute>;

const caches = new WeakMap<Database, Results>();

/** REPORT_CACHE_MB megabytes per database (64 by default): a by-site report of 100 sites is ~40 KB, a total under 1 KB. */
function resultsOf(database: Database, megabytes: number): Results {
  let results = caches.get(database);
  if (!results) {
    results = new LRUCache<string, object, Compute>({
      maxSize: megabytes * 1024 * 1024,
      // JSON's length approximates the bytes held; computed once per miss, which cost a query already.
      sizeCalculation: (value) => Math.max(1, JSON.stringify(value).length),
      fetchMethod: (_key, _stale, { context }) => context(),
    });
    caches.set(database, results);
  }
  return results;
}

/**
 * `compute()`'s result for this scope and report, from the cache when the account's data has not changed since
 * it was computed. `shape` is every input besides the scope's account and version that the result depends on.
 */
export async function cachedReport<T extends object>(
  scope: VersionedScope,
  report: string,
  shape: unknown,
  compute: () => Promise<T>,
): Promise<T> {
  const megabytes = env().REPORT_CACHE_MB;
  if (megabytes === 0 || readsFromReplica()) return compute();
  const { version, changedAt } = scope.dataVersion;
  const key = [scope.userId, version, changedAt.getTime(), report, JSON.stringify(shape)].join('\u0000');
  return (await resultsOf(await getDatabase(), megabytes).fetch(key, { context: compute })) as T;
}
