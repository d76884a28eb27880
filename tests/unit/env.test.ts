import { afterEach, describe, expect, it } from 'vitest';
import { env, readEnv, setEnv } from '@/lib/platform/env';
import { addressLimit, keyLimit } from '@/lib/ratelimit';

describe('readEnv', () => {
  it('defaults to the embedded database folder', () => {
    const env = readEnv({});
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.PGLITE_DIR).toBe('./.data/pglite');
    expect(env.TRUST_PROXY).toBe(0);
    expect(env.ALLOW_DEMO).toBe(false);
  });

  it('treats an empty DATABASE_URL as unset', () => {
    expect(readEnv({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
  });

  it('rejects a DATABASE_URL that is not postgres', () => {
    expect(() => readEnv({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
  });
});

describe('rate limits per minute', () => {
  const NAMES = ['RATE_LIMIT_PER_MINUTE', 'ADDRESS_RATE_LIMIT_PER_MINUTE'] as const;

  it('default to 120 per key and 30 per address, also when set empty', () => {
    for (const source of [{}, { RATE_LIMIT_PER_MINUTE: '', ADDRESS_RATE_LIMIT_PER_MINUTE: '' }]) {
      expect(readEnv(source)).toMatchObject({ RATE_LIMIT_PER_MINUTE: 120, ADDRESS_RATE_LIMIT_PER_MINUTE: 30 });
    }
  });

  it('read positive whole numbers', () => {
    expect(readEnv({ RATE_LIMIT_PER_MINUTE: '600', ADDRESS_RATE_LIMIT_PER_MINUTE: '1' })).toMatchObject({
      RATE_LIMIT_PER_MINUTE: 600,
      ADDRESS_RATE_LIMIT_PER_MINUTE: 1,
    });
  });

  for (const name of NAMES) {
    it(`rejects a ${name} that is not a positive whole number, naming it`, () => {
      // Anchored on the separator, so that ADDRESS_RATE_LIMIT_PER_MINUTE's error cannot pass for the other's.
      const error = new RegExp(`(: |; )${name}: must be a positive whole number`);
      for (const bad of ['0', '-5', '1.5', '1e3', '0x10', ' 60', '60/min', 'abc']) {
        expect(() => readEnv({ [name]: bad }), bad).toThrow(error);
      }
    });
  }
});

describe('setEnv', () => {
  afterEach(() => setEnv(undefined));

  it('installs a configuration that env() and the rate limits read, until reset', () => {
    setEnv(readEnv({ RATE_LIMIT_PER_MINUTE: '7', ADDRESS_RATE_LIMIT_PER_MINUTE: '3' }));
    expect(env().RATE_LIMIT_PER_MINUTE).toBe(7);
    expect([keyLimit(), addressLimit()]).toEqual([7, 3]);
    setEnv(undefined);
    expect([keyLimit(), addressLimit()]).toEqual([120, 30]);
  });
});
