import autocannon, { type Client, type Instance, type Request as CannonRequest } from 'autocannon';

/** What one load run saw: every response's latency and status, and the requests that got no answer. */
export interface Sample {
  latenciesMs: number[];
  statusCodes: Record<string, number>;
  /** Connection errors and timeouts. */
  failures: number;
  /** From the start to the last response, so idle time after the last one does not dilute req/s. */
  elapsedMs: number;
}

export interface Stats {
  requests: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  meanMs: number;
  minMs: number;
  maxMs: number;
  reqPerSec: number;
  statusCodes: Record<string, number>;
  failures: number;
  /** Answers of another status than the case expects (2xx, or 304 for a revalidation). */
  unexpected: number;
}

export interface LoadOptions {
  url: string;
  /**
   * Connection i sends headersByConnection[i % length]: one API key per connection keeps each key within
   * its report slots (lib/http/report-slots.ts) as a real client's would be.
   */
  headersByConnection: Record<string, string>[];
  connections: number;
  /** The path of each request in turn, when they differ (else the URL's). */
  pathOf?: () => string;
  /** Stop after this many responses… */
  amount?: number;
  /** …or after this many seconds, whichever comes first. */
  seconds: number;
}

let current: Instance | undefined;

/** Ends the run in progress early (Ctrl-C); it resolves with what it measured so far. */
export function stopCurrentLoad() {
  current?.stop();
}

export async function load({ url, headersByConnection, pathOf, connections, amount, seconds }: LoadOptions): Promise<Sample> {
  const latenciesMs: number[] = [];
  const statusCodes: Record<string, number> = {};
  let failures = 0;
  const started = performance.now();
  let last = started;
  // sampleInt 100: autocannon only notices a finished run at its sampling ticks (default every second).
  // timeout 30 s: above the server's 2 s statement_timeout, so a slow query shows as its 503, not as ours.
  let opened = 0;
  const setupClient = (client: Client) => client.setHeaders(headersByConnection[opened++ % headersByConnection.length]);
  const requests = pathOf ? [{ setupRequest: (request: CannonRequest) => ({ ...request, path: pathOf() }) }] : undefined;
  const instance = autocannon({ url, setupClient, requests, connections, amount, duration: seconds, timeout: 30, sampleInt: 100 });
  current = instance;
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    latenciesMs.push(ms);
    statusCodes[status] = (statusCodes[status] ?? 0) + 1;
    last = performance.now();
  });
  instance.on('reqError', () => failures++);
  // With `amount`, autocannon ignores `duration`: cap the time ourselves so one slow case cannot stall the run.
  const cap = amount ? setTimeout(() => instance.stop(), seconds * 1000) : undefined;
  try {
    await instance;
  } finally {
    clearTimeout(cap);
    current = undefined;
  }
  return { latenciesMs, statusCodes, failures, elapsedMs: last - started };
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1];
}

/** Whether a status is the answer a case wants: any 2xx, or exactly 304 when it revalidates. */
export const expectedStatus = (revalidates: boolean) => (status: string) =>
  revalidates ? status === '304' : status.startsWith('2');

export function summarize(sample: Sample, isExpected = expectedStatus(false)): Stats {
  const sorted = Float64Array.from(sample.latenciesMs).sort();
  const values = Array.from(sorted);
  const n = values.length;
  const unexpected = Object.entries(sample.statusCodes)
    .filter(([status]) => !isExpected(status))
    .reduce((sum, [, count]) => sum + count, 0);
  return {
    requests: n,
    p50Ms: percentile(values, 50),
    p95Ms: percentile(values, 95),
    p99Ms: percentile(values, 99),
    meanMs: n ? values.reduce((a, b) => a + b, 0) / n : NaN,
    minMs: n ? values[0] : NaN,
    maxMs: n ? values[n - 1] : NaN,
    reqPerSec: sample.elapsedMs > 0 ? (n * 1000) / sample.elapsedMs : NaN,
    statusCodes: sample.statusCodes,
    failures: sample.failures,
    unexpected,
  };
}

export interface Probe {
  status: number;
  headers: Headers;
  body: string;
}

/** One plain request (warm-ups and checks); redirects are not followed, so a lost session shows as a 3xx. */
export async function probe(url: string, headers: Record<string, string>): Promise<Probe> {
  const response = await fetch(url, { headers, redirect: 'manual', signal: AbortSignal.timeout(30_000) });
  return { status: response.status, headers: response.headers, body: await response.text() };
}
