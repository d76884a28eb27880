import { getDb, type Db, type Tx } from '@/db/client';

class RolledBack extends Error {}

/**
 * Runs `work` in a transaction that is then rolled back, and returns what it returned: the bench times writes on
 * the bench database and leaves none of them behind.
 */
export async function rolledBack<T>(work: (tx: Tx) => Promise<T>, config?: Parameters<Db['transaction']>[1]): Promise<T> {
  let result: { value: T } | undefined;
  await (await getDb())
    .transaction(async (tx) => {
      result = { value: await work(tx) };
      throw new RolledBack();
    }, config)
    .catch((err) => {
      if (!(err instanceof RolledBack)) throw err;
    });
  return result!.value;
}
