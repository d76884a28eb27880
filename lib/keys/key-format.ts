import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { sha256Hex } from '@/lib/shared/crypto';

/**
 * Key format (Unkey/GitHub style): `rpk_` + 32 random base62 characters + a 6-character base62 CRC32 of
 * everything before it. The checksum lets us reject typos and junk without touching the database; the
 * database only ever sees the SHA-256 of the whole key, plus its first 12 characters to show in lists.
 */
const API_KEY_PREFIX = 'rpk_';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
export const API_KEY_LENGTH = API_KEY_PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH;
const VISIBLE_PREFIX_LENGTH = 12;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_SHAPE = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 × 62: rejecting larger bytes keeps every character equally likely.
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

function checksum(body: string): string {
  let n = crc32(body);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

export const hashApiKey = (raw: string): string => sha256Hex(raw);

export function visiblePrefix(raw: string): string {
  return raw.slice(0, VISIBLE_PREFIX_LENGTH);
}

/** True when the string has the key's shape and its checksum matches: worth a database lookup. */
export function isWellFormedApiKey(raw: string): boolean {
  if (!KEY_SHAPE.test(raw)) return false;
  const body = raw.slice(0, -CHECKSUM_LENGTH);
  return checksum(body) === raw.slice(-CHECKSUM_LENGTH);
}

export function generateApiKey(): { raw: string; prefix: string; hash: string } {
  const body = API_KEY_PREFIX + randomBase62(RANDOM_LENGTH);
  const raw = body + checksum(body);
  return { raw, prefix: visiblePrefix(raw), hash: hashApiKey(raw) };
}
