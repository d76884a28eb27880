import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { API_KEY_LENGTH, generateApiKey, hashApiKey, isWellFormedApiKey, visiblePrefix } from '@/lib/keys/key-format';

// The key format: `rpk_` + 32 random base62 characters + a 6-character base62 CRC32 checksum.
const SHAPE = /^rpk_[0-9A-Za-z]{38}$/;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const keys = Array.from({ length: 1000 }, () => generateApiKey());

describe('API key format', () => {
  it('is rpk_ + 38 base62 characters, 42 in all', () => {
    expect(API_KEY_LENGTH).toBe(42);
    for (const { raw } of keys) {
      expect(raw).toMatch(SHAPE);
      expect(raw).toHaveLength(42);
    }
  });

  it('never repeats in 1000 keys, not even in the random part', () => {
    expect(new Set(keys.map((k) => k.raw)).size).toBe(1000);
    expect(new Set(keys.map((k) => k.raw.slice(4, 36))).size).toBe(1000);
  });

  it('uses the whole base62 alphabet in the random part, not a skewed subset', () => {
    const counts = new Map<string, number>();
    for (const { raw } of keys) for (const ch of raw.slice(4, 36)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 32,000 characters over 62 symbols: ~516 each; a biased modulo would push some far off.
    for (const n of counts.values()) expect(n).toBeGreaterThan(380);
    for (const n of counts.values()) expect(n).toBeLessThan(660);
  });

  it('validates its own checksum', () => {
    for (const { raw } of keys) expect(isWellFormedApiKey(raw)).toBe(true);
  });

  it('reports the first 12 characters as prefix and the SHA-256 hex of the whole key as hash', () => {
    for (const { raw, prefix, hash } of keys.slice(0, 50)) {
      expect(prefix).toBe(raw.slice(0, 12));
      expect(visiblePrefix(raw)).toBe(prefix);
      expect(hash).toBe(createHash('sha256').update(raw).digest('hex'));
      expect(hashApiKey(raw)).toBe(hash);
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('fails the checksum after any single-character change, anywhere after the prefix', () => {
    for (const { raw } of keys.slice(0, 20)) {
      for (let i = 4; i < raw.length; i++) {
        for (const ch of BASE62) {
          if (ch === raw[i]) continue;
          const changed = raw.slice(0, i) + ch + raw.slice(i + 1);
          if (isWellFormedApiKey(changed)) throw new Error(`${changed} (position ${i}) passed the checksum`);
        }
      }
    }
  });

  it('fails the checksum when two neighbouring characters are swapped', () => {
    for (const { raw } of keys.slice(0, 100)) {
      for (let i = 4; i < raw.length - 1; i++) {
        if (raw[i] === raw[i + 1]) continue;
        const swapped = raw.slice(0, i) + raw[i + 1] + raw[i] + raw.slice(i + 2);
        expect(isWellFormedApiKey(swapped)).toBe(false);
      }
    }
  });

  it('rejects junk of every kind', () => {
    const { raw } = keys[0];
    const junk = [
      '',
      'rpk_',
      raw.slice(0, -1),
      `${raw}a`,
      raw.replace('rpk_', 'rpx_'),
      raw.replace('rpk_', 'RPK_'),
      raw.replace('rpk_', 'sk_'),
      `sk_${raw.slice(4)}`,
      ` ${raw}`,
      `${raw} `,
      `${raw.slice(0, 20)}-${raw.slice(21)}`,
      `${raw.slice(0, 20)}_${raw.slice(21)}`,
      `${raw.slice(0, 20)}é${raw.slice(21)}`,
      `${raw}\n`,
      `${raw.slice(0, 41)}\0`,
      raw.toUpperCase(),
      'Bearer ' + raw,
      'x'.repeat(42),
      'rpk_' + '0'.repeat(38),
    ];
    for (const s of junk) expect(isWellFormedApiKey(s), JSON.stringify(s)).toBe(false);
  });
});
