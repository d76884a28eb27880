/**
 * `npm run bench`: a load benchmark of the production server on the large data set (big@example.com).
 * Every case runs twice, sequentially (1 connection) and concurrently, through autocannon against
 * `node scripts/serve.mjs`; figures are also given as ratios to the framework floor (GET /api/v1/health)
 * measured in the same run, so they compare across machines. Writes bench/results.json.
 */
import path from 'node:path';
import { SESSION_COOKIE } from '@/lib/dashboard/session-cookie';
import { todayUtc } from '@/lib/query';
import { buildIfNeeded, root } from './production-build.mjs';
import { configuredDatabaseTarget, withDatabase } from './open-database';
import { type Auth, type BenchCase, benchCases, selectCases } from './bench/cases';
import { type Phase, phasesOf } from './bench/phases';
import {
  type Access,
  closeAccess,
  type Dataset,
  describeMachine,
  loadDataset,
  openAccess,
  waitUntilDatabaseIdle,
} from './bench/fixtures';
import { expectedStatus, load, probe, stopCurrentLoad, summarize, type Stats } from './bench/measure';
import { DEFAULT_URL, options } from './bench/options';
import { machineLine, readmeTable } from './bench/readme-table';
import {
  describeErrors,
  type PhaseResult,
  printPhaseHeader,
  printRow,
  type Results,
  withRatios,
  writeResults,
} from './bench/report';
import { freePort, startServer } from './bench/server';
import { benchMonthEndClose, closeTable } from './bench/month-end-close';
import { benchImports, importTable } from './bench/imports';
import { benchBiTool, biToolProblem, biToolTable } from './bench/bi-tool';

const EMAIL = 'big@example.com';
/** Above anything the run can send, so no case is throttled while every request still passes the limiter. */
const RATE_LIMIT = 10_000_000;
/** Connections of the concurrent phase, each with its own API key (a key runs at most 2 reports at once). */
const CONCURRENCY = 10;
/** How long a case's requests still in flight when its load stops may take before the next case starts anyway. */
const SETTLE_SECONDS = 30;
const RESULTS_FILE = path.join(root, 'bench', 'results.json');

const settings = options();
/** Whether --only (if given) asks for the in-process figures of this name. */
const selected = (name: string) => !settings.only || settings.only.test(name);
const databaseUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || DEFAULT_URL;
// withDatabase (key, session, dataset checks) and the server must act on the same database.
process.env.DATABASE_URL = databaseUrl;
const shownUrl = databaseUrl.replace(/(\/\/[^:/@]+):[^@/]*@/, '$1:***@');
const loadHint = `DATABASE_URL=${shownUrl} npm run db:seed -- --scale large`;

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    console.error("\nInterrupted: stopping the server and removing the run's key and session… (again to force)");
    stopCurrentLoad();
  });
}
class Interrupted extends Error {}
const checkInterrupted = () => {
  if (interrupted) throw new Interrupted('interrupted');
};

/** The headers of each connection: its own API key, or the run's session (the dashboard has no report slots). */
function headersFor(auth: Auth, access: Access): Record<string, string>[] {
  if (auth === 'key') return access.keys.map((key) => ({ 'x-api-key': key.apiKey }));
  if (auth === 'session') return [{ cookie: `${SESSION_COOKIE}=${access.sessionToken}`, accept: 'text/html' }];
  return [{}];
}

/** Warm-up requests; null when they all succeeded, else why not (shown, and the case is not measured). */
async function warmUp(origin: string, bench: BenchCase, headers: Record<string, string>): Promise<string | null> {
  for (let i = 0; i < settings.warmups; i++) {
    const answer = await probe(origin + bench.path, headers);
    if (answer.status < 200 || answer.status > 299) {
      const where = answer.headers.get('location');
      return `warm-up answered ${answer.status}${where ? ` (Location: ${where})` : ''}: ${answer.body.slice(0, 300)}`;
    }
    // The API states the per-key ceiling it enforces; the dashboard pages are not rate-limited.
    const limit = answer.headers.get('x-ratelimit-limit');
    if (bench.path.startsWith('/api/') && limit !== String(RATE_LIMIT)) {
      return `X-RateLimit-Limit is ${limit ?? 'missing'}, expected ${RATE_LIMIT} (RATE_LIMIT_PER_MINUTE not applied?)`;
    }
  }
  return null;
}

/** Each connection's headers with If-None-Match: the ETag of the case's answer (the same for every key). */
async function revalidating(origin: string, bench: BenchCase, headers: Record<string, string>[]) {
  const etag = (await probe(origin + bench.path, headers[0])).headers.get('etag');
  if (!etag) throw new Error(`${bench.name}: the answer has no ETag to revalidate`);
  return headers.map((h) => ({ ...h, 'if-none-match': etag }));
}

const { PHASES, UNCACHED } = phasesOf(settings, CONCURRENCY);

/** The cases of the run (--only), with a warning for those that want more sites than the account has. */
function casesOf(dataset: Dataset) {
  const allCases = benchCases({ today: todayUtc(), siteIds: dataset.siteIds });
  const cases = selectCases(allCases, settings.only);
  for (const c of cases) {
    if (c.sites && c.sites > dataset.siteIds.length) {
      console.warn(
        `warning: "${c.name}" wants ${c.sites} sites; ${dataset.email} has ${dataset.siteIds.length}, so it reads them all`,
      );
    }
  }
  return { allCases, cases };
}

async function runPhases(origin: string, cases: BenchCase[], access: Access, phases: Phase[]) {
  const results: PhaseResult[] = [];
  const errors: string[] = [];
  for (const phase of phases) {
    printPhaseHeader(phase.title);
    const done: PhaseResult = {
      name: phase.name,
      connections: phase.connections,
      requests: phase.amount,
      seconds: phase.seconds,
      cases: [],
    };
    results.push(done);
    let floor: Stats | undefined;
    for (const bench of cases) {
      checkInterrupted();
      const headers = headersFor(bench.auth, access);
      const failed = await warmUp(origin, bench, headers[0]);
      checkInterrupted();
      if (failed) {
        errors.push(`${bench.name} (${phase.name}): ${failed}`);
        console.error(`!!! ERROR ${bench.name}: ${failed} — not measured`);
        continue;
      }
      const isExpected = expectedStatus(!!bench.revalidate);
      const sent = bench.revalidate ? await revalidating(origin, bench, headers) : headers;
      const stats = summarize(
        await load({ url: origin + bench.path, headersByConnection: sent, pathOf: bench.pathOf, ...phase }),
        isExpected,
      );
      checkInterrupted(); // a run cut short by Ctrl-C is not a figure
      if (!(await waitUntilDatabaseIdle(SETTLE_SECONDS))) {
        console.warn(`warning: the database was still busy ${SETTLE_SECONDS} s after "${bench.name}"`);
      }
      if (bench.floor === 'framework') floor = stats;
      const result = withRatios(bench, stats, floor);
      done.cases.push(result);
      printRow(result);
      const problem = describeErrors(stats, isExpected);
      if (problem) {
        errors.push(`${bench.name} (${phase.name}): ${problem}`);
        console.error(`!!! ERROR ${bench.name}: ${problem}`);
      }
    }
  }
  return { phases: results, errors };
}

/** The cases the report cache answers, on a server of their own without it. */
async function runUncached(cases: BenchCase[], access: Access) {
  if (!cases.some((c) => c.cached)) return { phases: [], errors: [] };
  const server = await startServer({
    port: await freePort(),
    database: { DATABASE_URL: databaseUrl },
    rateLimitPerMinute: RATE_LIMIT,
    env: { REPORT_CACHE_MB: '0' },
    interrupted: () => interrupted,
  });
  try {
    return await runPhases(server.origin, cases, access, UNCACHED);
  } finally {
    await server.stop();
  }
}

async function main(): Promise<number> {
  const target = configuredDatabaseTarget();
  return withDatabase(
    async () => {
      const dataset = await loadDataset(EMAIL);
      if (!dataset) {
        console.error(`bench: ${EMAIL} is not in ${target.description}. Load the large data set first:\n  ${loadHint}`);
        return 1;
      }
      const machine = await describeMachine();
      checkInterrupted();
      if (buildIfNeeded() !== 0) {
        console.error('bench: next build failed');
        return 1;
      }
      checkInterrupted();
      const port = settings.port ?? (await freePort());
      const access = await openAccess(dataset, CONCURRENCY);
      try {
        const server = await startServer({
          port,
          database: { DATABASE_URL: databaseUrl },
          rateLimitPerMinute: RATE_LIMIT,
          interrupted: () => interrupted,
        });
        try {
          const count = (n: number) => n.toLocaleString('en-US');
          console.log(
            `\n${EMAIL}: ${count(dataset.siteCount)} sites, ${count(dataset.revenueRows)} revenue rows; ${target.description}`,
          );
          console.log(`${machine.postgres}\n${machineLine(machine)}`);
          console.log(
            `server ${server.origin} (scripts/serve.mjs), RATE_LIMIT_PER_MINUTE=${RATE_LIMIT}, in-memory limiter`,
          );
          const { allCases, cases } = casesOf(dataset);
          const { phases, errors } = await runPhases(server.origin, cases, access, PHASES);
          // A BI tool's day on the same server, after the cases, with the auth floor at concurrency 10 to compare.
          const authFloor = phases.find((p) => p.name === 'concurrent')?.cases.find((c) => c.floor === 'auth');
          const biTool = selected('bi-tool')
            ? await benchBiTool(server.origin, dataset, access, todayUtc(), authFloor?.p95Ms)
            : null;
          if (biTool) {
            console.log(`\n${biToolTable(biTool)}`);
            const problem = biToolProblem(biTool);
            if (problem) errors.push(problem);
          }
          await server.stop();
          const uncached = await runUncached(
            cases.filter((c) => c.floor || c.cached),
            access,
          );
          phases.push(...uncached.phases);
          errors.push(...uncached.errors);
          // The month-end close, in-process (each close rolled back): with the server idle, not under load.
          const closes = selected('close') ? await benchMonthEndClose() : [];
          if (closes.length > 0) console.log(`\n${closeTable(closes)}`);
          // Last: they rewrite the account's recent rows (ending as they began), which bumps its data version.
          const imports = selected('import') ? await benchImports(dataset) : [];
          if (imports.length > 0) console.log(`\n${importTable(imports)}`);
          const date = new Date().toISOString();
          const results: Results = {
            date,
            ok: errors.length === 0,
            machine,
            database: target.description,
            dataset: { email: dataset.email, sites: dataset.siteCount, revenueRows: dataset.revenueRows },
            settings: {
              ...settings,
              only: settings.only?.source ?? null,
              concurrency: CONCURRENCY,
              rateLimitPerMinute: RATE_LIMIT,
            },
            phases,
            closes,
            imports,
            biTool,
            errors,
          };
          writeResults(RESULTS_FILE, results);
          console.log(`\nWrote ${path.relative(process.cwd(), RESULTS_FILE)}.`);
          console.log(`\nREADME table: \`npm run bench\` on ${date.slice(0, 10)} (${date}),`);
          console.log(`${machineLine(machine)}, ${count(dataset.revenueRows)} daily rows:\n`);
          console.log(readmeTable(allCases, phases, CONCURRENCY));
          if (closes.length > 0) console.log(`\n${closeTable(closes)}`);
          if (imports.length > 0) console.log(`\n${importTable(imports)}`);
          if (biTool) console.log(`\n${biToolTable(biTool)}`);
          if (errors.length > 0) {
            // The table marks those figures (†); the run still fails, loudly, naming each case.
            console.error(`\n!!! ${errors.length} case(s) failed:\n${errors.map((e) => `  - ${e}`).join('\n')}`);
            return 1;
          }
          return 0;
        } finally {
          await server.stop();
        }
      } finally {
        await closeAccess(dataset, access);
      }
    },
    { seedIfEmpty: false },
  );
}

/** The database cannot be reached or does not exist: say so, and how to create the data set. */
function databaseProblem(err: unknown): string | null {
  for (let e = err; e instanceof Error; e = e.cause) {
    const { code, severity } = e as Error & { code?: unknown; severity?: unknown };
    if ((typeof code === 'string' && /^E[A-Z]+$/.test(code)) || severity === 'FATAL') return e.message;
  }
  return null;
}

try {
  process.exitCode = await main();
} catch (err) {
  if (err instanceof Interrupted) {
    process.exitCode = 130;
  } else {
    const problem = databaseProblem(err);
    if (!problem) throw err;
    console.error(
      `bench: cannot use ${shownUrl}: ${problem}\nCreate the database and load the large data set:\n  ${loadHint}`,
    );
    process.exitCode = 1;
  }
}
