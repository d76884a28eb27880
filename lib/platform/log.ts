import pino, { type Logger } from 'pino';
import { describeError } from '@/lib/platform/error-line';

/**
 * The one logger of the server, the CLI and the import: structured JSON lines (pino), one per event, with a
 * request id where there is a request. What must never be logged is taken out twice over: fields named like
 * a secret are redacted, and every string is scrubbed of anything shaped like one (a raw key, a SHA-256
 * hash, an `apiKey` query value, a session cookie), so a secret inside a message or an error is caught too.
 * Errors go through describeError, which leaves out a failed query's parameters.
 */

const REDACTED = '[redacted]';

/** Field names (at any of the first two levels) whose values are secrets. */
const SECRET_FIELDS = ['apiKey', 'rawKey', 'keyHash', 'token', 'tokenHash', 'password', 'passwordHash', 'cookie'];
const SECRET_PATHS = [
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`]),
  'authorization',
  'headers.authorization',
  'headers["x-api-key"]',
];

const SECRET_TEXT: [RegExp, string][] = [
  [/rpk_[0-9A-Za-z]{8,}/g, `rpk_${REDACTED}`], // a raw API key (lib/keys/key-format.ts)
  [/\b[0-9a-f]{64}\b/gi, REDACTED], // SHA-256 in hex: a key's or a session token's hash
  [/(apikey=)[^&\s"']*/gi, `$1${REDACTED}`],
  [/(portal_session=)[^;\s"']*/g, `$1${REDACTED}`],
];

/** `text` with everything shaped like a secret replaced. */
function scrubSecrets(text: string): string {
  return SECRET_TEXT.reduce((scrubbed, [pattern, replacement]) => scrubbed.replace(pattern, replacement), text);
}

function scrubDeep(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubSecrets(value);
  if (value instanceof Error) return { message: scrubSecrets(describeError(value, true)) };
  if (depth > 3 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => scrubDeep(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubDeep(v, depth + 1)]));
}

/**
 * Lines go out through the console, by level: the console is what Next.js shows in development and what
 * the tests watch, and it writes to stdout / stderr like pino's own destination would.
 */
const toConsole = {
  write(line: string) {
    const level = Number(/"level":(\d+)/.exec(line)?.[1] ?? 30);
    const print = level >= 50 ? console.error : level >= 40 ? console.warn : console.log;
    print(line.trimEnd());
  },
};

export const log: Logger = pino(
  {
    level: process.env.LOG_LEVEL || 'info',
    base: { service: 'publisher-portal' },
    redact: { paths: SECRET_PATHS, censor: REDACTED },
    serializers: { err: (err: unknown) => scrubDeep(err) },
    hooks: {
      logMethod(args, method) {
        method.apply(this, args.map((arg) => scrubDeep(arg)) as Parameters<typeof method>);
      },
    },
  },
  toConsole,
);
