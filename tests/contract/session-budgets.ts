/**
 * The 429s: every operation asked once more after its budget is spent. A keyed operation spends the key's
 * budget (here the spender key's), a public one the client address's.
 */
import type { ContractWorld } from './server';
import type { Exchange } from './session-writes';

/** The request that spends a budget when asked of the server directly. */
export interface Spend {
  path: string;
  headers: Record<string, string>;
}

/** The operations without a key: they need no database either. */
export const PUBLIC = new Set(['getHealth', 'getOpenApiDocument']);

/** Per operation, the first request the main session expected to succeed. */
export function firstSuccesses(requests: Exchange[]): Exchange[] {
  const first = new Map<string, Exchange>();
  for (const e of requests) {
    if (e.expect < 300 && !e.invalid && !first.has(e.operationId)) first.set(e.operationId, e);
  }
  return [...first.values()];
}

/** Each keyed operation's first success, asked with the spender key instead (in the header, never the query). */
export function keyedPastBudget(requests: Exchange[], world: ContractWorld): Exchange[] {
  return firstSuccesses(requests)
    .filter((e) => !PUBLIC.has(e.operationId) && e.headers?.['X-Api-Key'])
    .map((e) => ({
      ...e,
      what: `${e.what}, key past its minute`,
      headers: { ...e.headers, 'X-Api-Key': world.keys.spender },
      expect: 429,
    }));
}

/** Each public operation's first success, asked once the address has spent its minute. */
export function publicPastBudget(requests: Exchange[]): Exchange[] {
  return firstSuccesses(requests)
    .filter((e) => PUBLIC.has(e.operationId))
    .map((e) => ({ ...e, what: `${e.what}, address past its minute`, expect: 429 }));
}
