import type { Db } from './open';

/**
 * A query the app runs on nearly every request, built once per database and run as a named prepared statement:
 * its SQL is not built again in Node, nor parsed and planned again by PostgreSQL (its parameters are
 * `sql.placeholder`s, and its plan does not depend on their values). Memoized per database, so tests that open
 * several each get their own.
 */
export function preparedPerDatabase<Query>(build: (db: Db) => Query): (db: Db) => Query {
  const built = new WeakMap<Db, Query>();
  return (db) => {
    let query = built.get(db);
    if (!query) built.set(db, (query = build(db)));
    return query;
  };
}
