import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { SERVER_NODE_FLAGS } from '../../scripts/server-flags.mjs';

/**
 * Real server processes for end-to-end tests that need more than Playwright's one webServer: each runs
 * `node scripts/serve.mjs` (our production server, which stamps the caller's socket address) over the
 * production build in `.next` that the webServer has already made, with its own database (a copy of an
 * embedded folder, PGlite being single-process, or a shared PostgreSQL database) and its own environment
 * (rate-limit store, proxy trust).
 */

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
const run = promisify(execFile);

/**
 * The environment for a child process: ours without what Playwright injects for its own workers (a loader
 * in NODE_OPTIONS would be inherited by the server), and without configuration that must be chosen per
 * server: the embedded database unless told otherwise, no Upstash, no proxy trust.
 */
export function childEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (
      name === 'NODE_OPTIONS' ||
      name.startsWith('PW_') ||
      name.startsWith('PLAYWRIGHT_') ||
      name === 'TEST_WORKER_INDEX'
    )
      continue;
    env[name] = value;
  }
  return {
    ...env,
    DATABASE_URL: '',
    UPSTASH_REDIS_REST_URL: '',
    UPSTASH_REDIS_REST_TOKEN: '',
    TRUST_PROXY: '0',
    PORT: '',
    HOST: '',
    ALLOW_DEMO: '',
    ...overrides,
  } as unknown as NodeJS.ProcessEnv;
}

export function makeTempDir(label: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `portal-${label}-`));
}

/** Where the operator CLI acts: an embedded folder, or a PostgreSQL URL. */
export type DatabaseEnv = { PGLITE_DIR: string } | { DATABASE_URL: string };

/** Runs `tsx scripts/cli.ts …` on that database and returns its standard output. */
async function runCli(args: string[], database: DatabaseEnv): Promise<string> {
  const tsx = path.join(ROOT, 'node_modules', '.bin', 'tsx');
  const { stdout } = await run(tsx, ['scripts/cli.ts', ...args], {
    cwd: ROOT,
    env: childEnv(database),
    timeout: 90_000,
  });
  return stdout;
}

/**
 * Creates `count` API keys for demo@example.com with the operator CLI (an embedded folder is seeded on first
 * use, ~10 s; each further key takes a few seconds). Returns the raw keys.
 */
export async function createApiKeys(
  database: DatabaseEnv,
  count: number,
  email = 'demo@example.com',
): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const stdout = await runCli(['apikey', '--email', email, '--label', `e2e rate limit ${i + 1}`], database);
    const key = stdout.trim().split('\n').at(-1)?.trim() ?? '';
    if (!/^rpk_[0-9A-Za-z]+$/.test(key)) throw new Error(`apikey printed no key:\n${stdout}`);
    keys.push(key);
  }
  return keys;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  name: string;
  url: string;
  child: ChildProcess;
  /** Everything the server wrote to stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

export interface StartServerOptions {
  name: string;
  /** An embedded database folder (its own copy per server: PGlite is single-process) or a PostgreSQL URL. */
  database: DatabaseEnv;
  env?: Record<string, string>;
  /**
   * What answers once the server is ready: by default GET /api/v1/sites without a key → 401. That spends a
   * request of this machine's per-address bucket, which a per-address test must not lose: it polls a page.
   */
  ready?: { path: string; status: number };
  timeoutMs?: number;
  /**
   * What starts it: our server (scripts/serve.mjs, the default), `npm start`'s scripts/start.mjs (which runs
   * serve.mjs in a child: both stop together), or Next.js's own `next start`, which stamps no client address.
   */
  entry?: 'serve' | 'start' | 'next-start';
  /** A port of its own; by default any free one. */
  port?: number;
  /** Where it listens; 127.0.0.1 by default, null for the entry's own default. */
  hostname?: string | null;
}

const ENTRIES = {
  serve: ['scripts/serve.mjs'],
  start: ['scripts/start.mjs'],
  'next-start': ['node_modules/next/dist/bin/next', 'start'],
} as const;

export async function startServer(options: StartServerOptions): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const hostname = options.hostname === undefined ? '127.0.0.1' : options.hostname;
  const [script, ...command] = ENTRIES[options.entry ?? 'serve'];
  const group = options.entry === 'start';
  const child = spawn(
    process.execPath,
    // start.mjs gives serve.mjs the flags itself.
    [
      ...(script === ENTRIES.serve[0] ? SERVER_NODE_FLAGS : []),
      path.join(ROOT, script),
      ...command,
      '--port',
      String(port),
      ...(hostname ? ['--hostname', hostname] : []),
    ],
    {
      cwd: ROOT,
      env: childEnv({ ...options.database, ...options.env }),
      stdio: ['ignore', 'pipe', 'pipe'],
      // start.mjs runs serve.mjs in a child: a process group of their own, so that stopping one stops both.
      detached: group,
    },
  );
  const signal = (name: NodeJS.Signals) => {
    try {
      if (group) process.kill(-child.pid!, name);
      else child.kill(name);
    } catch {
      // Already gone.
    }
  };
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

  const server: ServerProcess = {
    name: options.name,
    url,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      signal('SIGTERM');
      const timer = setTimeout(() => signal('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };

  const ready = options.ready ?? { path: '/api/v1/sites', status: 401 };
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `server ${options.name} exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${output}`,
      );
    }
    try {
      const response = await fetch(`${url}${ready.path}`, { signal: AbortSignal.timeout(10_000) });
      await response.arrayBuffer();
      if (response.status === ready.status) return server;
      last = `HTTP ${response.status}`;
    } catch (err) {
      last = (err as Error).message; // connection refused until serve.mjs listens
    }
    await sleep(100);
  }
  await server.stop();
  throw new Error(`server ${options.name} not ready on ${url} (last: ${last}):\n${output}`);
}

/** A port for a server of the e2e run: past the webServer's (E2E_PORT), so a run keeps to its own range. */
export const e2ePort = (offset: number) => Number(process.env.E2E_PORT ?? 3200) + offset;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How often `needle` occurs in `haystack`. */
export function occurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/**
 * A new database beside the one `baseUrl` names (`<name>_<suffix>`, dropped first if it exists), seeded with
 * the demo data by the operator CLI. Returns its URL.
 */
export async function seededPostgresDatabase(baseUrl: string, suffix: string): Promise<string> {
  const url = new URL(baseUrl);
  const name = `${url.pathname.slice(1) || 'postgres'}_${suffix}`;
  const admin = postgres({
    host: url.hostname,
    port: Number(url.port || 5432),
    username: decodeURIComponent(url.username),
    database: 'postgres',
    onnotice: () => {},
  });
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  url.pathname = `/${name}`;
  await runCli(['seed'], { DATABASE_URL: url.toString() });
  return url.toString();
}
