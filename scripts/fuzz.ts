/**
 * `npm run fuzz [-- --runs 10000] [--port 3000]`: hostile requests (tests/support/fuzz.ts) to every operation
 * and method of a production server (on a free port unless given) on a throwaway embedded database seeded
 * with the demo data. Prints the statuses by operation and the slowest requests; exits 1 if any answer breaks
 * a rule (an undocumented status, an error that is not problem+json, a row outside the caller's scope, a HEAD
 * that differs from its GET or has a body, no answer at all) or the server's output shows a key, a hash or a
 * session.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { ENDPOINTS } from '@/lib/api/endpoints';
import { readEnv, setEnv } from '@/lib/platform/env';
import { createApiKey, revokeApiKey } from '@/lib/keys';
import { createPublisher, deactivatePublisher, findAccountByEmail } from '@/lib/accounts';
import { listSites } from '@/lib/sites';
import { COMMAND_LINE, type Principal } from '@/lib/access';
import {
  answerProblems,
  documentedStatuses,
  type FuzzCaller,
  type FuzzRequest,
  operationRequests,
} from '../tests/support/fuzz';
import { secretsIn } from '../tests/support/secrets';
import { freePort, startServer } from './bench/server';
import { withDatabase } from './open-database';
import { buildIfNeeded } from './production-build.mjs';

const option = (name: string) => new RegExp(`--${name}[= ](\\d+)`).exec(process.argv.slice(2).join(' '))?.[1];
const runs = Number(option('runs') ?? 10_000);
const port = option('port');
const CONCURRENCY = 4;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-fuzz-'));
setEnv(readEnv({ ...process.env, DATABASE_URL: '', PGLITE_DIR: dataDir }));

async function keyFor(email: string, options: { scopeTo?: number; revoke?: boolean } = {}) {
  const user = (await findAccountByEmail(email))!;
  const principal: Principal = { userId: user.id, role: user.role, siteScope: null, via: 'session' };
  const sites = (await listSites(principal)).map((s) => s.siteId);
  const siteIds = options.scopeTo ? sites.slice(0, options.scopeTo) : null;
  const created = await createApiKey(principal, { label: `fuzz ${email}`, siteIds });
  if (options.revoke) await revokeApiKey(principal, created.key.id);
  return { key: created.apiKey, id: created.key.id, sites: options.revoke ? [] : (siteIds ?? sites), userId: user.id };
}

/** The callers, made on the throwaway database before the server opens it. */
async function makeCallers() {
  return withDatabase(async () => {
    const account = await keyFor('demo@example.com');
    const scoped = await keyFor('demo@example.com', { scopeTo: 2 });
    const rival = await keyFor('rival@example.com');
    const admin = await keyFor('admin@example.com');
    const revoked = await keyFor('demo@example.com', { revoke: true });
    const spare = await Promise.all([1, 2, 3].map(() => keyFor('rival@example.com')));
    const callers: FuzzCaller[] = [
      { name: 'account key', key: account.key, sites: account.sites },
      { name: 'site-scoped key', key: scoped.key, sites: scoped.sites },
      { name: 'other account', key: rival.key, sites: rival.sites },
      { name: 'admin', key: admin.key, sites: admin.sites },
      { name: 'revoked key', key: revoked.key, sites: [] },
      { name: 'unknown key', key: `rpk_${'x'.repeat(38)}`, sites: [] },
      { name: 'no key', key: null, sites: [] },
    ];
    const ids = [...account.sites, ...rival.sites, account.userId, rival.userId, revoked.id, ...spare.map((k) => k.id)];
    // Accounts the cases may deactivate (not the callers'); one stays invited, one is deactivated at once.
    const throwaway = await Promise.all(
      [1, 2, 3].map(async (n) => {
        const email = `fuzz-account-${n}-${Date.now()}@example.com`;
        return (await createPublisher(COMMAND_LINE, { email, name: `Fuzz account ${n}` })).publisher.id;
      }),
    );
    await deactivatePublisher(COMMAND_LINE, throwaway[2]);
    return { callers, ids, accountIds: throwaway };
  });
}

interface Sent {
  request: FuzzRequest;
  status: number;
  ms: number;
  problems: string[];
}

const answerTo = async (origin: string, request: FuzzRequest) => {
  const response = await fetch(`${origin}${request.path}`, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
};

/** One request and its checks; a HEAD is followed by its GET, whose answer it must match. */
async function send(origin: string, request: FuzzRequest, documented: ReturnType<typeof documentedStatuses>) {
  const started = performance.now();
  try {
    const answer = await answerTo(origin, request);
    const ms = performance.now() - started;
    const problems = await answerProblems(request, answer, documented, (twin) => answerTo(origin, twin));
    return { request, status: answer.status, ms, problems };
  } catch (err) {
    return { request, status: 0, ms: performance.now() - started, problems: [`no answer: ${(err as Error).message}`] };
  }
}

function report(sent: Sent[]) {
  const byOperation = new Map<string, Map<number, number>>();
  for (const { request, status } of sent) {
    const counts = byOperation.get(request.operationId) ?? new Map<number, number>();
    counts.set(status, (counts.get(status) ?? 0) + 1);
    byOperation.set(request.operationId, counts);
  }
  console.log(`\n${sent.length.toLocaleString('en-US')} requests; statuses by operation:`);
  for (const [operation, counts] of byOperation) {
    const cells = [...counts].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`);
    console.log(`  ${operation.padEnd(22)} ${cells.join('  ')}`);
  }
  const byMethod = new Map<string, number>();
  for (const { request } of sent) byMethod.set(request.method, (byMethod.get(request.method) ?? 0) + 1);
  console.log(`  by method: ${[...byMethod].map(([method, n]) => `${method}×${n}`).join('  ')}`);
  console.log('\nslowest:');
  for (const { request, status, ms } of [...sent].sort((a, b) => b.ms - a.ms).slice(0, 10)) {
    console.log(`  ${ms.toFixed(0).padStart(6)} ms  ${status}  ${request.method} ${request.path.slice(0, 110)}`);
  }
}

async function main(): Promise<number> {
  console.log(`fuzz: ${runs.toLocaleString('en-US')} requests on a demo database in ${dataDir}`);
  const { callers, ids, accountIds } = await makeCallers();
  if (buildIfNeeded() !== 0) return 1;
  const server = await startServer({
    port: port ? Number(port) : await freePort(),
    database: { PGLITE_DIR: dataDir },
    rateLimitPerMinute: 1_000_000,
    interrupted: () => false,
  });
  try {
    const document = await (await fetch(`${server.origin}/api/v1/openapi.json`)).json();
    const documented = documentedStatuses(document);
    const perOperation = Math.ceil(runs / ENDPOINTS.length);
    const requests = ENDPOINTS.flatMap((e) =>
      fc.sample(operationRequests(document, e.operationId, { callers, ids, accountIds }), perOperation),
    ).slice(0, runs);
    const sent: Sent[] = [];
    let next = 0;
    const worker = async () => {
      while (next < requests.length) sent.push(await send(server.origin, requests[next++], documented));
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    report(sent);
    const broken = sent.filter((s) => s.problems.length > 0);
    const leaked = secretsIn(
      server.output(),
      callers.flatMap((c) => (c.key ? [c.key] : [])),
    );
    for (const { request, status, problems } of broken.slice(0, 20)) {
      console.error(
        `!!! ${request.method} ${request.path.slice(0, 120)} (${request.caller.name}) → ${status}: ${problems.join('; ')}`,
      );
    }
    if (leaked.length > 0) console.error(`!!! the server's output holds secrets: ${leaked.join(', ')}`);
    console.log(`\n${broken.length} broken answers; server output scanned: ${leaked.length} secrets.`);
    return broken.length > 0 || leaked.length > 0 ? 1 : 0;
  } finally {
    await server.stop();
  }
}

// The throwaway database goes however the run ends (a failed build included).
const removeData = () => fs.rmSync(dataDir, { recursive: true, force: true });
main().then(
  (code) => {
    removeData();
    process.exit(code);
  },
  (err) => {
    console.error(`fuzz failed: ${(err as Error).stack ?? err}`);
    removeData();
    process.exit(1);
  },
);
