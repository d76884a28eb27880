import { DrizzleQueryError } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { generateApiKey } from '@/lib/keys/key-format';
import { sha256Hex } from '@/lib/shared/crypto';
import { log } from '@/lib/platform/log';
import { loggedLines } from '../support/logs';
import { secretsIn } from '../support/secrets';

let spies: MockInstance[] = [];
beforeEach(() => {
  spies = (['log', 'warn', 'error'] as const).map((m) => vi.spyOn(console, m).mockImplementation(() => {}));
});
afterEach(() => spies.forEach((spy) => spy.mockRestore()));

const printed = () => spies.flatMap((spy) => spy.mock.calls.map(([line]) => String(line))).join('\n');

describe('the logger', () => {
  it('writes one JSON line per event, by level to log / warn / error, with its fields', () => {
    log.info({ requestId: 'r-1' }, 'ready');
    log.warn('slow');
    log.error({ requestId: 'r-2' }, 'failed');
    const [info, warn, error] = spies;
    expect(info.mock.calls).toHaveLength(1);
    expect(warn.mock.calls).toHaveLength(1);
    expect(error.mock.calls).toHaveLength(1);
    expect(loggedLines(...spies).map(({ level, msg, requestId }) => ({ level, msg, requestId }))).toEqual([
      { level: 30, msg: 'ready', requestId: 'r-1' },
      { level: 40, msg: 'slow', requestId: undefined },
      { level: 50, msg: 'failed', requestId: 'r-2' },
    ]);
  });

  it('redacts secret fields and scrubs secret-shaped text anywhere', () => {
    const key = generateApiKey();
    const token = 'session-token-value-1234567890';
    log.info(
      {
        apiKey: key.raw,
        keyHash: key.hash,
        token,
        tokenHash: sha256Hex(token),
        password: 'hunter22',
        headers: { authorization: `Bearer ${key.raw}`, cookie: `portal_session=${token}` },
        url: `/api/v1/revenues/countries?pageSize=1&apiKey=${key.raw}`,
        note: `presented ${key.raw}, stored ${key.hash}`,
      },
      `saw ${key.raw} and portal_session=${token}`,
    );
    const text = printed();
    expect(secretsIn(text, [key.raw, token])).toEqual([]);
    expect(text).not.toContain('hunter22');
    expect(text).not.toContain(token);
    expect(loggedLines(...spies)[0].url).toBe('/api/v1/revenues/countries?pageSize=1&apiKey=[redacted]');
  });

  it('logs a failed query without its parameters', () => {
    const key = generateApiKey();
    const cause = Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' });
    const err = new DrizzleQueryError('select 1 where "key_hash" = $1', [key.hash], cause);
    log.error({ err }, 'request failed');
    const [line] = loggedLines(...spies);
    expect(line.err?.message).toContain('select 1 where "key_hash" = $1');
    expect(line.err?.message).toContain('connection refused');
    expect(secretsIn(printed(), [key.raw])).toEqual([]);
  });
});
