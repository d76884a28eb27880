/**
 * Issue 18, point 1: an export cannot take the database away. A HEAD opens no cursor and holds no slot; a
 * client that stops reading, or a transfer that runs too long, is cut off with its transaction and its slots;
 * exports are counted per account and per server. After each, nothing is left open in the database
 * (pg_stat_activity on PostgreSQL, pg_cursors on PGlite). The dashboard's downloads through a real server:
 * e2e/export-bounds.spec.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as exportRoute from '@/app/api/v1/reports/countries/export/route';
import { DEMO_IDS } from '@/db/seed-data';
import { readEnv, setEnv } from '@/lib/platform/env';
import { claimExportSlot } from '@/lib/http/report-slots';
import { MAX_CONCURRENT_EXPORTS, MAX_CONCURRENT_EXPORTS_PER_ACCOUNT } from '@/lib/platform/limits';
import { callApi, get } from '../support/api';
import { openWork, useTestDatabase } from '../support/db';
import { demoKey, rivalKey } from '../support/keys';

const t = useTestDatabase();
const EXPORT = '/api/v1/reports/countries/export';

afterEach(() => setEnv(undefined));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The export's response as Next.js gets it, its body not yet read. */
async function openExport(key: string): Promise<Response> {
  const request = new Request(`http://localhost${EXPORT}`, { headers: { 'X-Api-Key': key } });
  return exportRoute.GET(request, { params: Promise.resolve({}) });
}

/** Waits (up to 5 s) until the export's database work has ended. */
async function expectNothingOpen() {
  await expect.poll(() => openWork(t.database), { timeout: 5_000, interval: 50 }).toBe(0);
}

/** True when the account has every export slot free again (taken and given back at once). */
async function accountSlotsFree(accountId: string): Promise<boolean> {
  const held = [];
  try {
    for (let i = 0; i < MAX_CONCURRENT_EXPORTS_PER_ACCOUNT; i++) held.push(await claimExportSlot(accountId));
    return true;
  } catch {
    return false;
  } finally {
    held.forEach((release) => release());
  }
}

describe('a HEAD on the export', () => {
  it('opens no cursor and holds no slot: after 20 of them the same key reports and exports', async () => {
    const { raw } = await demoKey();
    for (let i = 0; i < 20; i++) {
      const head = await callApi('HEAD', EXPORT, { key: raw });
      expect(head.status).toBe(200);
      expect(head.text).toBe('');
      expect(head.headers.get('content-disposition')).toMatch(/^attachment; filename="revenue-rows-.*\.csv"$/);
      expect(await openWork(t.database)).toBe(0);
    }
    expect((await get('/api/v1/reports/totals', { key: raw })).status).toBe(200);
    const whole = await get(EXPORT, { key: raw });
    expect(whole.status).toBe(200);
    expect(whole.text.split('\n').length).toBeGreaterThan(10_000);
    expect(await accountSlotsFree(DEMO_IDS.users.demo)).toBe(true);
    await expectNothingOpen();
  });

  it('answers as GET would when it cannot be served, without a body', async () => {
    const refused = await callApi('HEAD', `${EXPORT}?pageSize=5`, { key: (await demoKey()).raw });
    expect(refused.status).toBe(400);
    expect(refused.text).toBe('');
    expect((await callApi('HEAD', EXPORT)).status).toBe(401);
  });
});

describe('a download the client stops reading', () => {
  it('is cut off after the stall limit, with its transaction and slots; the key then reports again', async () => {
    setEnv(readEnv({ ...process.env, EXPORT_STALL_SECONDS: '1' }));
    const { raw } = await demoKey();
    const response = await openExport(raw);
    expect(response.status).toBe(200);
    expect(await openWork(t.database)).toBe(0); // nothing is read before the body is
    const reader = response.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    // It stops reading mid-download (a demo year is many batches): nothing else may wait for it.
    await sleep(1_500);
    await expect(reader.read()).rejects.toThrow(/the client stopped reading/);
    await expectNothingOpen();
    expect(await accountSlotsFree(DEMO_IDS.users.demo)).toBe(true);
    for (const path of ['/api/v1/reports/totals', '/api/v1/reports/by-country', EXPORT]) {
      expect((await get(path, { key: raw })).status, path).toBe(200);
    }
  });

  it('is cut off after the wall-clock limit however steadily it reads', async () => {
    setEnv(readEnv({ ...process.env, EXPORT_MAX_SECONDS: '1' }));
    const response = await openExport((await demoKey()).raw);
    const reader = response.body!.getReader();
    const started = Date.now();
    await expect(async () => {
      for (;;) {
        if ((await reader.read()).done) return;
        await sleep(200);
      }
    }).rejects.toThrow(/longer than an export may/);
    expect(Date.now() - started).toBeLessThan(3_000);
    await expectNothingOpen();
    expect(await accountSlotsFree(DEMO_IDS.users.demo)).toBe(true);
  });
});

describe('exports are counted', () => {
  it(`per account, ${MAX_CONCURRENT_EXPORTS_PER_ACCOUNT} at once across its keys and the dashboard`, async () => {
    const running = [];
    for (let i = 0; i < MAX_CONCURRENT_EXPORTS_PER_ACCOUNT; i++) running.push(await openExport((await demoKey()).raw));
    const third = await get(EXPORT, { key: (await demoKey()).raw });
    expect(third.status).toBe(429);
    expect(third.json.detail).toMatch(/This account already has 2 exports running/);
    expect(third.headers.get('retry-after')).toBe('5');
    // The dashboard's downloads take the same slots.
    await expect(claimExportSlot(DEMO_IDS.users.demo)).rejects.toThrow(/This account already has 2 exports running/);
    // Another account is not held up, and neither are the account's reports.
    expect((await get(EXPORT, { key: (await rivalKey()).raw })).status).toBe(200);
    expect((await get('/api/v1/reports/totals', { key: (await demoKey()).raw })).status).toBe(200);
    await Promise.all(running.map((response) => response.body!.cancel()));
    expect(await accountSlotsFree(DEMO_IDS.users.demo)).toBe(true);
    await expectNothingOpen();
  });

  it(`per server, ${MAX_CONCURRENT_EXPORTS} at once whoever asks, so reports always keep connections`, async () => {
    const others = await Promise.all(
      Array.from({ length: MAX_CONCURRENT_EXPORTS }, (_, i) => claimExportSlot(`other-account-${i}`)),
    );
    try {
      const refused = await get(EXPORT, { key: (await demoKey()).raw });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('10');
      expect(refused.json.detail).toMatch(/already running 3 exports/);
    } finally {
      others.forEach((release) => release());
    }
    expect(await accountSlotsFree(DEMO_IDS.users.demo)).toBe(true); // the refusal gave the account's slot back
    expect((await get(EXPORT, { key: (await demoKey()).raw })).status).toBe(200);
  });

  it('keeps reports answering while the server runs as many exports as it allows, unread', async () => {
    const keys = [(await demoKey()).raw, (await demoKey()).raw, (await rivalKey()).raw];
    const running = await Promise.all(keys.map(openExport));
    const readers = running.map((response) => response.body!.getReader());
    await Promise.all(readers.map((reader) => reader.read())); // each has begun, and waits for its client
    const started = Date.now();
    expect((await get('/api/v1/reports/by-country', { key: (await rivalKey()).raw })).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(2_000);
    await Promise.all(readers.map((reader) => reader.cancel()));
    await expectNothingOpen();
  });
});
