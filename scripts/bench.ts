/**
 * `npm run bench`: a load benchmark of the production server on the large data set (big@example.com).
 * Every case runs twice, sequentially (1 connection) and concurrently, through autocannon against
 * `node scripts/serve.mjs`; figures are also given as ratios to the framework floor (GET /api/v1/health)
 * measured in the same run, so they compare across machines. Writes bench/results.json.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SESSION_COOKIE } from '@/lib/auth/cookie';
import { todayUtc } from '@/lib/query';
import { buildIfNeeded, root } from './production-build.mjs';
import { configuredDatabaseTarget, withDatabase } from './open-database';
import { type Auth, type BenchCase, benchCases, selectCases } from './bench/cases';
import { type Access, closeAccess, type Dataset, describeMachine, loadDataset, openAccess } from './bench/fixtures';
import { load, probe, stopCurrentLoad, summarize, type Stats } from './bench/measure';
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

const HELP = `Usage: npm run bench [-- options]

Starts the production server (building it first if the sources changed) on BENCH_DATABASE_URL, else
DATABASE_URL, else ${'postgres://postgres@127.0.0.1:5432/portal_bench'}, and loads it with autocannon
as big@example.com (created by \`npm run db:seed -- --scale large\`). Prints p50/p95/p99 and req/s per case,
also as ratios to GET /api/v1/health, and writes bench/results.json. Exits 1 if any request failed.

Options:
  --quick            a smoke run: fewer requests and 3 s concurrent phases
  --only <regex>     run only the cases whose name matches (the two floors always run)
  --duration <s>     seconds of the concurrent phase per case (default 10)
  --requests <n>     requests per case in the sequential phase (default 100, --quick 20)
  --port <n>         port of the server (default: a free one)
  -h, --help         show this help`;

const EMAIL = 'big@example.com';
const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/portal_bench';
/** Above anything the run can send, so no case is throttled while every request still passes the limiter. */
const RATE_LIMIT = 10_000_000;
const CONCURRENCY = 10;
const RESULTS_FILE = path.join(root, 'bench', 'results.json');

function options() {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      duration: { type: 'string' },
      requests: { type: 'string' },
      port: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    process.exit(0);
  }
  const positive = (name: string, raw: string | undefined, fallback: number) => {
    if (raw === undefined) return fallback;
    if (!/^[1-9]\d*$/.test(raw)) usage(`--${name} must be a positive whole number, not "${raw}"`);
    return Number(raw);
  };
  let only: RegExp | undefined;
  try {
    only = values.only === undefined ? undefined : new RegExp(values.only, 'i');
  } catch (err) {
    usage(`--only: ${(err as Error).message}`);
  }
  const quick = values.quick;
  return {
    quick,
    only,
    requests: positive('requests', values.requests, quick ? 20 : 100),
    warmups: quick ? 2 : 3,
    durationSeconds: positive('duration', values.duration, quick ? 3 : 10),
    /** A slow case stops the sequential phase at this many seconds even before its requests are done. */
    sequentialCapSeconds: quick ? 10 : 30,
    port: values.port === undefined ? undefined : positive('port', values.port, 0),
  };
}

function usage(message: string): never {
  console.error(`bench: ${message}\n\n${HELP}`);
  process.exit(2);
}

const settings = options();
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

function headersFor(auth: Auth, access: Access): Record<string, string> {
  if (auth === 'key') return { 'x-api-key': access.apiKey };
  if (auth === 'session') return { cookie: `${SESSION_COOKIE}=${access.sessionToken}`, accept: 'text/html' };
  return {};
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

async function runPhases(origin: string, dataset: Dataset, access: Access) {
  const cases = selectCases(benchCases({ today: todayUtc(), siteIds: dataset.siteIds }), settings.only);
  for (const c of cases) {
    if (c.sites && c.sites > dataset.siteIds.length) {
      console.warn(
        `warning: "${c.name}" wants ${c.sites} sites; ${dataset.email} has ${dataset.siteIds.length}, so it reads them all`,
      );
    }
  }
  const phases = [
    {
      name: 'sequential',
      connections: 1,
      amount: settings.requests,
      seconds: settings.sequentialCapSeconds,
      title: `Sequential: 1 connection, ${settings.requests} requests per case after ${settings.warmups} warm-ups (at most ${settings.sequentialCapSeconds} s)`,
    },
    {
      name: 'concurrent',
      connections: CONCURRENCY,
      amount: undefined,
      seconds: settings.durationSeconds,
      title: `Concurrent: ${CONCURRENCY} connections for ${settings.durationSeconds} s per case, after ${settings.warmups} warm-ups`,
    },
  ] as const;
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
      const failed = await warmUp(origin, bench, headers);
      checkInterrupted();
      if (failed) {
        errors.push(`${bench.name} (${phase.name}): ${failed}`);
        console.error(`!!! ERROR ${bench.name}: ${failed} — not measured`);
        continue;
      }
      const stats = summarize(await load({ url: origin + bench.path, headers, ...phase }));
      checkInterrupted(); // a run cut short by Ctrl-C is not a figure
      if (bench.floor === 'framework') floor = stats;
      const result = withRatios(bench, stats, floor);
      done.cases.push(result);
      printRow(result);
      const problem = describeErrors(stats);
      if (problem) {
        errors.push(`${bench.name} (${phase.name}): ${problem}`);
        console.error(`!!! ERROR ${bench.name}: ${problem}`);
      }
    }
  }
  return { phases: results, errors };
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
      const access = await openAccess(dataset);
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
          console.log(
            `${machine.postgres}\nnode ${machine.node}, ${machine.cpus} × ${machine.cpuModel}, ${(machine.memoryBytes / 2 ** 30).toFixed(1)} GiB`,
          );
          console.log(
            `server ${server.origin} (scripts/serve.mjs), RATE_LIMIT_PER_MINUTE=${RATE_LIMIT}, in-memory limiter`,
          );
          const { phases, errors } = await runPhases(server.origin, dataset, access);
          const results: Results = {
            date: new Date().toISOString(),
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
            errors,
          };
          writeResults(RESULTS_FILE, results);
          console.log(`\nWrote ${path.relative(process.cwd(), RESULTS_FILE)}.`);
          if (errors.length === 0) return 0;
          console.error(`\n!!! ${errors.length} case(s) failed:\n${errors.map((e) => `  - ${e}`).join('\n')}`);
          return 1;
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
