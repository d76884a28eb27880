import { sha256Hex } from '@/lib/shared/crypto';

/** Shapes of secrets: a raw API key (lib/keys/key-format.ts), and a SHA-256 in hex (a key's or a token's hash). */
const SECRET_SHAPES = [/rpk_[0-9A-Za-z]{20,}/g, /\b[0-9a-f]{64}\b/gi];

/**
 * What in a server's output is, or looks like, a secret: each known secret (a raw key, a session token) and
 * its SHA-256, and anything shaped like a raw key or a hash. The logger (lib/platform/log.ts) scrubs such shapes, so
 * one found here got out some other way. Returned shortened, so a failure message does not repeat them.
 */
export function secretsIn(output: string, known: string[] = []): string[] {
  const found = new Set<string>();
  for (const secret of known.filter(Boolean)) {
    for (const form of [secret, sha256Hex(secret)]) if (output.includes(form)) found.add(form);
  }
  for (const shape of SECRET_SHAPES) for (const [match] of output.matchAll(shape)) found.add(match);
  return [...found].map((secret) => `${secret.slice(0, 8)}…`);
}
