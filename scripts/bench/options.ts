import { parseArgs } from 'node:util';

/** The default database of `npm run bench`, where `npm run db:seed -- --scale large` loads big@example.com. */
export const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/portal_bench';

const HELP = `Usage: npm run bench [-- options]

Starts the production server (building it first if the sources changed) on BENCH_DATABASE_URL, else
DATABASE_URL, else ${DEFAULT_URL}, and loads it with autocannon as
big@example.com (created by \`npm run db:seed -- --scale large\`), with one API key per connection (a key
may run only 2 reports at once); the keys and the dashboard session are removed at the end. Prints
p50/p95/p99 and req/s per case, also as ratios to GET /api/v1/health, writes bench/results.json, and ends
with the README's Performance table. Exits 1, naming the case, if any request failed or answered outside 2xx.

Options:
  --quick            a smoke run: fewer requests and 3 s concurrent phases
  --only <regex>     run only the cases whose name matches (the two floors always run)
  --duration <s>     seconds of the concurrent phase per case (default 10)
  --requests <n>     requests per case in the sequential phase (default 100, --quick 20)
  --port <n>         port of the server (default: a free one)
  -h, --help         show this help`;

/** The run's settings from the command line; --help prints the usage and exits, a bad option exits 2. */
export function options() {
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

