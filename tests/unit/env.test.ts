import { describe, expect, it } from 'vitest';
import { readEnv } from '@/lib/env';

describe('readEnv', () => {
  it('defaults to the embedded database folder', () => {
    const env = readEnv({});
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.PGLITE_DIR).toBe('./.data/pglite');
    expect(env.TRUST_PROXY).toBe(false);
  });

  it('treats an empty DATABASE_URL as unset', () => {
    expect(readEnv({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
  });

  it('rejects a DATABASE_URL that is not postgres', () => {
    expect(() => readEnv({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
  });
});
