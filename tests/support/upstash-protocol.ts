import { createHash } from 'node:crypto';

/**
 * The pure parts of the Upstash REST emulator (tests/support/upstash-emulator.ts): turning request
 * arguments into Redis arguments, rewriting Lua scripts that stock Redis rejects, and shaping replies
 * the way @upstash/redis decodes them (see HttpClient.request / decode in its dist).
 */

/** A reply as ioredis' callBuffer gives it (RESP2): bulk and status strings arrive as Buffers. */
export type RawReply = Buffer | string | number | null | undefined | Error | RawReply[];
export type Json = string | number | null | Json[];

export const sha1 = (text: string | Buffer) => createHash('sha1').update(text).digest('hex');

/** The client JSON-stringifies objects itself; numbers and booleans arrive as JSON scalars. */
export function toRedisArg(a: unknown): string {
  return typeof a === 'string' ? a : a === null ? 'null' : typeof a === 'object' ? JSON.stringify(a) : String(a);
}

/** Shebang flags that only Upstash understands; stock Redis refuses the whole script ("Unexpected flag"). */
const UPSTASH_ONLY_FLAGS = new Set(['allow-key-locking']);

/**
 * @upstash/ratelimit >= 2.1 starts every script with `#!lua flags=allow-key-locking`. Drop that flag and
 * keep any other shebang option; if nothing is left, blank the line (not remove it) so Lua error line
 * numbers still match the original text, and the script also runs on Redis < 7 (no shebang support).
 */
function stripUpstashFlags(script: string): string {
  const m = /^#!lua([^\n]*)/.exec(script);
  if (!m) return script;
  const kept: string[] = [];
  for (const token of m[1].trim().split(/\s+/).filter(Boolean)) {
    if (!token.startsWith('flags=')) {
      kept.push(token);
      continue;
    }
    const flags = token
      .slice('flags='.length)
      .split(',')
      .filter((f) => f && !UPSTASH_ONLY_FLAGS.has(f));
    if (flags.length) kept.push(`flags=${flags.join(',')}`);
  }
  const line = kept.length ? `#!lua ${kept.join(' ')}` : '';
  return line + script.slice(m[0].length);
}

/**
 * Clients call EVALSHA with the SHA-1 of the text they know (the original, flag and all), while Redis
 * only knows the stripped text's SHA. Remembering original → stripped on every EVAL / SCRIPT LOAD lets
 * EVALSHA hit after the first EVAL, as it would on Upstash, instead of degrading every call to EVAL.
 */
export class ScriptTranslator {
  private readonly shas = new Map<string, string>();

  private strip(script: string): string {
    const stripped = stripUpstashFlags(script);
    if (stripped !== script) this.shas.set(sha1(script), sha1(stripped));
    return stripped;
  }

  private sha(s: string): string {
    return this.shas.get(s.toLowerCase()) ?? s;
  }

  /** Rewrites one command (name upper-cased) before it goes to Redis. Synchronous, so MULTI can use it. */
  rewrite(name: string, args: string[]): string[] {
    switch (name) {
      case 'EVAL':
      case 'EVAL_RO':
        return args.length ? [this.strip(args[0]), ...args.slice(1)] : args;
      case 'EVALSHA':
      case 'EVALSHA_RO':
        return args.length ? [this.sha(args[0]), ...args.slice(1)] : args;
      case 'SCRIPT': {
        const sub = args[0]?.toUpperCase();
        if (sub === 'LOAD' && args.length === 2) return [args[0], this.strip(args[1])];
        if (sub === 'EXISTS') return [args[0], ...args.slice(1).map((s) => this.sha(s))];
        return args;
      }
      default:
        return args;
    }
  }

  /** SCRIPT LOAD must answer the SHA of the text the client sent, the one it will pass to EVALSHA. */
  fixReply(name: string, args: string[], reply: RawReply): RawReply {
    if (name === 'SCRIPT' && args[0]?.toUpperCase() === 'LOAD' && args.length === 2 && reply != null)
      return sha1(args[1]);
    return reply;
  }
}

/**
 * Commands that would break the one connection every request shares (state or blocking), answered with
 * an error instead. /multi-exec is the way to run a transaction, as on Upstash.
 */
const REFUSED = new Set([
  'MULTI',
  'EXEC',
  'DISCARD',
  'WATCH',
  'UNWATCH',
  'SELECT',
  'QUIT',
  'RESET',
  'MONITOR',
  'CLIENT',
  'HELLO',
  'AUTH',
  'SUBSCRIBE',
  'PSUBSCRIBE',
  'SSUBSCRIBE',
  'UNSUBSCRIBE',
  'PUNSUBSCRIBE',
  'SUNSUBSCRIBE',
  'SYNC',
  'PSYNC',
  'BLPOP',
  'BRPOP',
  'BRPOPLPUSH',
  'BLMOVE',
  'BLMPOP',
  'BZPOPMIN',
  'BZPOPMAX',
  'BZMPOP',
  'WAIT',
  'WAITAOF',
]);

export function refusal(name: string, args: string[]): string | null {
  const blockingRead = (name === 'XREAD' || name === 'XREADGROUP') && args.some((a) => a.toUpperCase() === 'BLOCK');
  if (REFUSED.has(name) || blockingRead) return `ERR Command is not available in the Upstash emulator: '${name}'`;
  return null;
}

/**
 * Upstash-Encoding: base64 → every string base64-encoded, recursively inside arrays; integers and nil
 * unchanged. "OK" stays plain, as Upstash sends status OK (the client special-cases it; decoding is the
 * same either way). Without the header, strings are sent as UTF-8 text.
 */
export function encodeReply(reply: RawReply, base64: boolean): Json {
  if (reply === null || reply === undefined) return null;
  if (typeof reply === 'number') return reply;
  if (Array.isArray(reply)) return reply.map((r) => encodeReply(r, base64));
  // A Lua script may return error replies nested in a table; send their text like any string.
  const buf = reply instanceof Error ? Buffer.from(reply.message) : Buffer.isBuffer(reply) ? reply : Buffer.from(reply);
  if (!base64) return buf.toString('utf8');
  return buf.length === 2 && buf.toString() === 'OK' ? 'OK' : buf.toString('base64');
}

/** A Redis error's text, exactly as Redis wrote it ("ERR …", "NOSCRIPT …", "WRONGTYPE …"). */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
