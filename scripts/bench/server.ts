import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import path from 'node:path';
import { root } from '../production-build.mjs';
import { SERVER_NODE_FLAGS } from '../server-flags.mjs';

export interface BenchServer {
  origin: string;
  /** Everything the server printed so far. */
  output(): string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const probe = net.createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const ECHOED_LINES = 40;

/**
 * `node scripts/serve.mjs` (what `npm start` runs) on 127.0.0.1:port against `database`, resolved once
 * /api/v1/health answers. Its output is echoed with a prefix, up to a cap: under load an error can repeat
 * on every request.
 */
export async function startServer(options: {
  port: number;
  /** PostgreSQL, or an embedded database's folder. */
  database: { DATABASE_URL: string } | { PGLITE_DIR: string };
  rateLimitPerMinute: number;
  /** More of the server's environment (REPORT_CACHE_MB, say). */
  env?: Record<string, string>;
  interrupted: () => boolean;
}): Promise<BenchServer> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: '',
    ...options.database,
    RATE_LIMIT_PER_MINUTE: String(options.rateLimitPerMinute),
    ADDRESS_RATE_LIMIT_PER_MINUTE: String(options.rateLimitPerMinute),
    ...options.env,
  };
  // The in-memory limiter: exact for one server, and no network round trip to Upstash in the figures.
  delete env.UPSTASH_REDIS_REST_URL;
  delete env.UPSTASH_REDIS_REST_TOKEN;
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(root, 'scripts', 'serve.mjs'), '--port', String(options.port), '--hostname', '127.0.0.1'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  echo(child);
  const server: BenchServer = {
    origin: `http://127.0.0.1:${options.port}`,
    output: () => output,
    stop: () => stopChild(child),
  };
  try {
    await waitUntilHealthy(child, server.origin, options.interrupted);
  } catch (err) {
    await server.stop();
    throw err;
  }
  return server;
}

function echo(child: ChildProcess) {
  let echoed = 0;
  const print = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) {
      if (echoed < ECHOED_LINES) console.error(`  [server] ${line}`);
      else if (echoed === ECHOED_LINES) console.error('  [server] (further output not shown)');
      echoed++;
    }
  };
  child.stdout?.on('data', print);
  child.stderr?.on('data', print);
}

async function waitUntilHealthy(child: ChildProcess, origin: string, interrupted: () => boolean) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (interrupted()) throw new Error('interrupted while the server was starting');
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before answering; its output is above`);
    }
    try {
      const response = await fetch(`${origin}/api/v1/health`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not answer ${origin}/api/v1/health within 120 s`);
}

async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}
