import { sleep } from './servers';

/** The fixed window: whole UTC minutes (both stores align windows to the epoch). */
const WINDOW_MS = 60_000;

export const windowOf = (t: number) => Math.floor(t / WINDOW_MS);
export const windowEnd = (t: number) => (windowOf(t) + 1) * WINDOW_MS;

/** Waits for the next UTC minute unless at least `needMs` remain in this one, so a burst fits in one window. */
export async function waitForRoomInWindow(needMs: number): Promise<void> {
  const left = windowEnd(Date.now()) - Date.now();
  if (left < needMs) await sleep(left + 200);
}

export interface Answer {
  status: number;
  headers: Headers;
  body: string;
  /** Epoch ms when the request was sent and when its whole answer had arrived. */
  sentAt: number;
  receivedAt: number;
  /** Which server answered (index into the list of base URLs). */
  server: number;
}

/**
 * Sends `count` GET requests all at once (none awaits another), the i-th to `bases[i % bases.length]`,
 * and returns every answer in sending order.
 */
export async function burst(
  bases: string[],
  path: string,
  count: number,
  headers: Record<string, string>,
): Promise<Answer[]> {
  const started = Array.from({ length: count }, async (_, i): Promise<Answer> => {
    const server = i % bases.length;
    const sentAt = Date.now();
    const response = await fetch(`${bases[server]}${path}`, { headers, signal: AbortSignal.timeout(30_000) });
    const body = await response.text();
    return { status: response.status, headers: response.headers, body, sentAt, receivedAt: Date.now(), server };
  });
  return Promise.all(started);
}

export function countBy<T>(items: T[], key: (item: T) => string | number): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[String(key(item))] = (counts[String(key(item))] ?? 0) + 1;
  return counts;
}

/** 0, 1, …, n-1 */
export const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** The X-RateLimit-Remaining values of the answers, as numbers sorted ascending. */
export const remainingValues = (answers: Answer[]) =>
  answers.map((a) => Number(a.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b);
