/**
 * `npm run contract:prism [-- --port 3350 --prism-port 4050]`: a production server on a fresh demo database,
 * Prism's validating proxy in front of it (`prism proxy --errors`, tests/contract/prism.ts), and a session
 * through the proxy (tests/contract/session-requests.ts) that calls every operation with every documented
 * media type, parameter and error status, then spends a key's minute for the 429, then asks two failing
 * servers for the 503 and the 500 (tests/contract/session-faults.ts). Prints operation × status × violations
 * and every violation; exits 1 on any violation, or an answer other than the one asked for.
 */
import fs from 'node:fs';
import { type Exchange, sessionRequests } from './session-requests';
import { type PrismProxy, startPrism, type Violation, violationsOf } from './prism';
import { type ContractServer, DOCUMENT_FILE, exitWith, numberOption, startContractServer } from './server';
import { faultRequests, type FaultyServer, startBrokenServer, startOutageServer } from './session-faults';
import { keyedPastBudget, publicPastBudget, type Spend } from './session-budgets';

/** Per key per minute: more than the session spends with one key, few enough to spend for the 429 in seconds. */
const KEY_LIMIT = 400;

interface Outcome {
  exchange: Exchange;
  status: number;
  /** The violations that count: all of them, or only the response's when the request is wrong on purpose. */
  violations: Violation[];
}

/** Two proxies: one fails every violation (--errors); the other forwards the requests that are wrong on purpose. */
interface Proxies {
  strict: PrismProxy;
  forwarding: PrismProxy;
}

/** The main session's successful requests asked again of a failing server, through a strict proxy of its own. */
async function askFaulty(start: () => Promise<FaultyServer>, port: number, requests: Exchange[]) {
  const faulty = await start();
  let prism: PrismProxy | undefined;
  try {
    prism = await startPrism(DOCUMENT_FILE, faulty.server.origin, { port, errors: true });
    const outcomes: Outcome[] = [];
    for (const exchange of faultRequests(requests, faulty)) {
      outcomes.push(await send({ strict: prism, forwarding: prism }, exchange));
    }
    return outcomes;
  } finally {
    await prism?.stop();
    await faulty.stop();
  }
}

async function send(proxies: Proxies, exchange: Exchange): Promise<Outcome> {
  const prism = exchange.invalid ? proxies.forwarding : proxies.strict;
  const response = await fetch(`${prism.origin}${exchange.path}`, {
    method: exchange.method,
    headers: exchange.headers,
    body: exchange.body,
    signal: AbortSignal.timeout(60_000),
  });
  const body = await response.text();
  const all = violationsOf(response.headers, body);
  const violations = exchange.invalid ? all.filter((v) => !v.location.startsWith('request')) : all;
  return { exchange, status: response.status, violations };
}

/**
 * Asks `exchange` through Prism once its budget is spent on the server itself (asking `spend` directly until
 * a 429): a 429 from the server. Again when the minute turned in between.
 */
async function whenSpent(server: ContractServer, proxies: Proxies, exchange: Exchange, spend: Spend) {
  let outcome: Outcome | undefined;
  for (let attempt = 0; attempt < 3 && outcome?.status !== 429; attempt++) {
    let status = 200;
    for (let spent = 0; status !== 429 && spent <= 2 * KEY_LIMIT; spent++) {
      const answer = await fetch(`${server.origin}${spend.path}`, { headers: spend.headers });
      await answer.arrayBuffer();
      status = answer.status;
    }
    outcome = await send(proxies, exchange);
  }
  return outcome!;
}

/** The 304: the ETag of a first answer sent back as If-None-Match. */
async function notModified(proxies: Proxies, operationId: string, path: string): Promise<Outcome> {
  const etag = (await fetch(`${proxies.strict.origin}${path}`)).headers.get('etag') ?? '';
  const headers = { 'If-None-Match': etag };
  return send(proxies, { operationId, what: 'If-None-Match: its ETag', method: 'GET', path, headers, expect: 304 });
}

/** The documented statuses of each operation that the session did not get, to say so. */
function notProvoked(outcomes: Outcome[], document: { paths: Record<string, Record<string, any>> }) {
  const lines: string[] = [];
  for (const methods of Object.values(document.paths)) {
    for (const op of Object.values(methods)) {
      // Prism's own answers (its 500 or 422, with violations) are not the server's statuses.
      const own = outcomes.filter((o) => o.exchange.operationId === op.operationId && o.violations.length === 0);
      const seen = new Set(own.map((o) => String(o.status)));
      const missing = Object.keys(op.responses).filter((s) => !seen.has(s));
      if (missing.length > 0) lines.push(`  ${String(op.operationId).padEnd(22)} ${missing.join(' ')}`);
    }
  }
  console.log(`\ndocumented statuses not provoked:\n${lines.join('\n')}`);
}

function report(outcomes: Outcome[]) {
  const rows = new Map<string, { count: number; violations: number }>();
  for (const { exchange, status, violations } of outcomes) {
    const key = `${exchange.operationId.padEnd(22)} ${String(status).padEnd(6)}`;
    const row = rows.get(key) ?? { count: 0, violations: 0 };
    rows.set(key, { count: row.count + 1, violations: row.violations + violations.length });
  }
  console.log(
    `\n${'operation'.padEnd(22)} ${'status'.padEnd(6)} ${'requests'.padStart(8)} ${'violations'.padStart(10)}`,
  );
  for (const [key, { count, violations }] of [...rows].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`${key} ${String(count).padStart(8)} ${String(violations).padStart(10)}`);
  }
  // A Prism answer (its 500 or 422) is a violation, listed below, rather than the server's status.
  const unexpected = outcomes.filter((o) => o.status !== o.exchange.expect && o.violations.length === 0);
  const violated = outcomes.filter((o) => o.violations.length > 0);
  for (const { exchange, status } of unexpected) {
    console.error(`UNEXPECTED ${exchange.operationId} (${exchange.what}): ${status}, wanted ${exchange.expect}`);
  }
  // One line per distinct violation, with the requests that met it.
  const distinct = new Map<string, string[]>();
  for (const { exchange, status, violations } of violated) {
    for (const v of violations) {
      const line = `${exchange.operationId} ${status}: ${v.severity} ${v.location} ${v.message}`;
      distinct.set(line, [...(distinct.get(line) ?? []), exchange.what]);
    }
  }
  for (const [line, whats] of distinct) console.error(`VIOLATION ${line}\n    in: ${[...new Set(whats)].join('; ')}`);
  const operations = new Set(outcomes.map((o) => o.exchange.operationId)).size;
  console.log(
    `\n${outcomes.length} requests over ${operations} operations through Prism: ` +
      `${violated.length} with violations (${distinct.size} distinct), ${unexpected.length} unexpected statuses`,
  );
  return violated.length === 0 && unexpected.length === 0;
}

async function main(): Promise<number> {
  const server = await startContractServer(numberOption('port', 3350), KEY_LIMIT);
  const prismPort = numberOption('prism-port', 4050);
  const started: PrismProxy[] = [];
  try {
    const proxies: Proxies = {
      strict: await startPrism(DOCUMENT_FILE, server.origin, { port: prismPort, errors: true }),
      forwarding: await startPrism(DOCUMENT_FILE, server.origin, { port: prismPort + 1, errors: false }),
    };
    started.push(proxies.strict, proxies.forwarding);
    const outcomes: Outcome[] = [];
    const requests = sessionRequests(server);
    for (const exchange of requests) outcomes.push(await send(proxies, exchange));
    outcomes.push(await notModified(proxies, 'getHealth', '/api/v1/health'));
    outcomes.push(await notModified(proxies, 'getOpenApiDocument', '/api/v1/openapi.json'));
    // Each keyed operation past the spender key's minute, then each public one past the address's (last: the
    // address is this process's, and every later request to this server would be refused).
    const spendKey = { path: '/api/v1/sites', headers: { 'X-Api-Key': server.keys.spender } };
    for (const exchange of keyedPastBudget(requests, server)) {
      outcomes.push(await whenSpent(server, proxies, exchange, spendKey));
    }
    const port = numberOption('port', 3350);
    outcomes.push(...(await askFaulty(() => startOutageServer(port + 1), prismPort + 2, requests)));
    outcomes.push(...(await askFaulty(() => startBrokenServer(port + 2), prismPort + 3, requests)));
    const spendAddress = { path: '/api/v1/health', headers: {} };
    for (const exchange of publicPastBudget(requests)) {
      outcomes.push(await whenSpent(server, proxies, exchange, spendAddress));
    }
    notProvoked(outcomes, JSON.parse(fs.readFileSync(DOCUMENT_FILE, 'utf8')));
    return report(outcomes) ? 0 : 1;
  } finally {
    await Promise.all(started.map((p) => p.stop()));
    await server.stop();
  }
}

exitWith(main);
