import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import IORedis, { Command, ReplyError } from 'ioredis';
import { encodeReply, errorText, refusal, ScriptTranslator, toRedisArg, type RawReply } from './upstash-protocol';

/**
 * A small Upstash Redis REST API over a real Redis, so the production Upstash rate-limit store
 * (@upstash/ratelimit over @upstash/redis) runs for real in tests, in-process or from separately started
 * server processes (CLI at the bottom). Only what @upstash/redis 1.x sends is implemented:
 * - POST /            body ["CMD", ...args]     → 200 {result} | 400 {error}
 * - POST /pipeline    body [[...], [...]]       → 200 [{result} | {error}, ...] (not atomic)
 * - POST /multi-exec  body [[...], [...]]       → same, inside MULTI/EXEC
 * - GET|POST /cmd/arg/...  path style (a POST body is appended as the last argument), as Upstash docs it
 * - Authorization: Bearer <token> (or ?_token=); anything else → 401 {error: "Unauthorized"}
 * - Upstash-Encoding: base64 → string results base64-encoded (see encodeReply)
 * - the Upstash-only `allow-key-locking` Lua flag is stripped (see upstash-protocol.ts)
 * Key isolation: `keyPrefix` prefixes every key inside Redis (ioredis keyPrefix, which knows each
 * command's key positions, EVAL's numkeys included); replies that list key names (KEYS, SCAN) show it.
 */

export type EmulatorMode = 'normal' | 'error' | 'hang' | 'slow';

export interface UpstashEmulator {
  url: string;
  token: string;
  close(): Promise<void>;
  /** make the next requests fail or hang, for fail-open tests */
  setMode(mode: EmulatorMode, delayMs?: number): void;
  /** HTTP requests received (every mode, failed auth included) */
  requests: number;
  /** Commands run, by upper-cased name (pipeline and multi-exec entries count one by one). */
  commands: Record<string, number>;
  resetCounts(): void;
}

export interface UpstashEmulatorOptions {
  /** default redis://127.0.0.1:6379 */
  redisUrl?: string;
  /** default 0 = random */
  port?: number;
  token?: string;
  keyPrefix?: string;
}

const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
const MAX_BODY = 10 * 1024 * 1024;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function startUpstashEmulator(options: UpstashEmulatorOptions = {}): Promise<UpstashEmulator> {
  const token = options.token ?? `emu_${Math.random().toString(36).slice(2)}`;
  // One connection for everything: ioredis writes commands as they come (implicit pipelining) and
  // Redis runs each EVAL atomically, so counters stay exact under hundreds of concurrent requests.
  const redis = new IORedis(options.redisUrl ?? DEFAULT_REDIS_URL, {
    keyPrefix: options.keyPrefix,
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
  });
  redis.on('error', () => {}); // surfaced per command; without a listener ioredis logs "Unhandled error event"
  await redis.connect();

  const scripts = new ScriptTranslator();
  const held = new Set<ServerResponse>(); // answers withheld by 'hang'
  const timers = new Set<NodeJS.Timeout>(); // answers delayed by 'slow'
  let mode: EmulatorMode = 'normal';
  let delay = 0;
  const state = { requests: 0, commands: {} as Record<string, number> };

  const count = (name: string) => void (state.commands[name] = (state.commands[name] ?? 0) + 1);

  /** Refusals, plus Redis' own arity error where ioredis' keyPrefix would invent a key ("<prefix>undefined"). */
  function check(name: string, args: string[]): void {
    const refused = refusal(name, args);
    if (refused) throw new HttpError(400, refused);
    if (!options.keyPrefix || !new Command(name, args).getKeys().some((k) => k === undefined)) return;
    throw new HttpError(
      400,
      name.startsWith('EVAL') || name.startsWith('FCALL')
        ? "ERR Number of keys can't be greater than number of args"
        : `ERR wrong number of arguments for '${name.toLowerCase()}' command`,
    );
  }

  /** One command → its raw reply; throws the Redis error (message as Redis wrote it). */
  async function run(command: unknown[]): Promise<RawReply> {
    if (!Array.isArray(command) || command.length === 0) throw new HttpError(400, 'ERR empty command');
    const name = toRedisArg(command[0]).toUpperCase();
    const args = command.slice(1).map(toRedisArg);
    count(name);
    check(name, args);
    // Upper-case name: ioredis' reply transformers (hgetall → object) are keyed by the lower-case name.
    const reply = (await redis.callBuffer(name, ...scripts.rewrite(name, args))) as RawReply;
    return scripts.fixReply(name, args, reply);
  }

  type Entry = { result: RawReply } | { error: string };

  async function runTransaction(commands: unknown[][]): Promise<Entry[]> {
    const multi = redis.multi();
    const names: string[] = [];
    const argLists: string[][] = [];
    for (const command of commands) {
      if (!Array.isArray(command) || command.length === 0) throw new HttpError(400, 'ERR empty command');
      const name = toRedisArg(command[0]).toUpperCase();
      const args = command.slice(1).map(toRedisArg);
      count(name);
      check(name, args);
      names.push(name);
      argLists.push(args);
      multi.callBuffer(name, ...scripts.rewrite(name, args));
    }
    // A command refused while queueing aborts the whole transaction (EXECABORT): exec() rejects → 400.
    const results = (await multi.exec()) ?? [];
    return results.map(([err, reply], i) =>
      err ? { error: errorText(err) } : { result: scripts.fixReply(names[i], argLists[i], reply as RawReply) },
    );
  }

  async function handle(req: IncomingMessage, url: URL, body: string): Promise<unknown> {
    const auth = req.headers.authorization ?? '';
    const given = auth.startsWith('Bearer ') ? auth.slice('Bearer '.length) : url.searchParams.get('_token');
    if (given !== token) throw new HttpError(401, 'Unauthorized');
    const base64 = String(req.headers['upstash-encoding'] ?? '').toLowerCase() === 'base64';
    const parse = () => {
      try {
        return JSON.parse(body) as unknown;
      } catch {
        throw new HttpError(400, 'ERR failed to parse command');
      }
    };
    const path = url.pathname.replace(/\/+$/, '');

    if (path === '/pipeline' || path === '/multi-exec') {
      const commands = parse();
      if (!Array.isArray(commands) || commands.length === 0 || !commands.every(Array.isArray)) {
        throw new HttpError(400, 'ERR pipeline body must be a non-empty array of commands');
      }
      const entries =
        path === '/multi-exec'
          ? await runTransaction(commands as unknown[][])
          : await Promise.all(
              (commands as unknown[][]).map((c) =>
                run(c).then(
                  (result): Entry => ({ result }),
                  (e: unknown): Entry => ({ error: errorText(e) }),
                ),
              ),
            );
      return entries.map((e) => ('error' in e ? e : { result: encodeReply(e.result, base64) }));
    }

    let command: unknown[];
    if (path === '') {
      const parsed = req.method === 'POST' && body ? parse() : null;
      if (!Array.isArray(parsed)) throw new HttpError(400, 'ERR command must be a JSON array');
      command = parsed;
    } else {
      command = path.slice(1).split('/').map(decodeURIComponent);
      if (req.method === 'POST' && body) command.push(body);
    }
    try {
      return { result: encodeReply(await run(command), base64) };
    } catch (e) {
      // Redis' own errors are the client's fault (400); a lost Redis connection is the server's (500).
      throw e instanceof HttpError ? e : new HttpError(e instanceof ReplyError ? 400 : 500, errorText(e));
    }
  }

  function send(res: ServerResponse, status: number, payload: unknown) {
    if (res.destroyed || res.headersSent) return;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(payload));
  }

  const server = createServer((req, res) => {
    state.requests++;
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => {
      // The mode is read when the request arrives, so switching back to 'normal' does not free hung ones.
      const current = mode;
      const wait = delay;
      if (current === 'hang') {
        held.add(res);
        res.on('close', () => held.delete(res));
        return;
      }
      if (current === 'error') return send(res, 500, { error: 'ERR upstash emulator: simulated outage' });
      const url = new URL(req.url ?? '/', 'http://emulator');
      const answer =
        size > MAX_BODY
          ? Promise.resolve({ status: 413, payload: { error: 'ERR request body too large' } })
          : handle(req, url, Buffer.concat(chunks).toString('utf8')).then(
              (payload) => ({ status: 200, payload }),
              (e: unknown) => ({
                status: e instanceof HttpError ? e.status : 500,
                payload: { error: errorText(e) },
              }),
            );
      void answer.then(({ status, payload }) => {
        // 'slow' runs the command first and delays only the answer: a client that times out has still
        // spent its token, as with a slow network on the way back.
        if (current !== 'slow' || wait <= 0) return send(res, status, payload);
        const timer = setTimeout(() => {
          timers.delete(timer);
          send(res, status, payload);
        }, wait);
        timers.add(timer);
      });
    });
  });
  // Longer than undici's keep-alive, so the server never closes a socket the client is about to reuse.
  server.keepAliveTimeout = 65_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    get requests() {
      return state.requests;
    },
    get commands() {
      return state.commands;
    },
    resetCounts() {
      state.requests = 0;
      state.commands = {};
    },
    setMode(next, delayMs = 0) {
      mode = next;
      delay = delayMs;
    },
    close() {
      closed ??= (async () => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        for (const res of held) res.destroy();
        held.clear();
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections(); // keep-alive sockets would otherwise hold close() (and vitest) open
        await stopped;
        await redis.quit().catch(() => redis.disconnect());
      })();
      return closed;
    },
  };
}

/** A quick PING (~500 ms at most) so tests can skip cleanly on machines without Redis. */
/** Removes every Redis key under `prefix` (a test run's namespace), straight through a connection of its own. */
export async function deleteRedisKeys(
  prefix: string,
  url: string = process.env.REDIS_URL ?? DEFAULT_REDIS_URL,
): Promise<void> {
  const direct = new IORedis(url);
  try {
    const keys = await direct.keys(`${prefix}*`);
    if (keys.length) await direct.del(...keys);
  } finally {
    await direct.quit();
  }
}

export async function redisAvailable(url: string = process.env.REDIS_URL ?? DEFAULT_REDIS_URL): Promise<boolean> {
  const client = new IORedis(url, {
    lazyConnect: true,
    connectTimeout: 500,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  client.on('error', () => {});
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), 500);
    });
    await Promise.race([client.connect().then(() => client.ping()), timeout]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    client.disconnect();
  }
}

// CLI: tsx tests/support/upstash-emulator.ts --port 8079 --token t [--redis redis://…] [--prefix p:]
// Prints the URL on stdout and runs until SIGINT / SIGTERM.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const flag = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const emulator = await startUpstashEmulator({
    port: Number(flag('port') ?? 0),
    token: flag('token'),
    redisUrl: flag('redis'),
    keyPrefix: flag('prefix'),
  });
  console.log(emulator.url);
  const stop = () => void emulator.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
