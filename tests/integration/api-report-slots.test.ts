import { describe, expect, it } from 'vitest';
import { DEMO_IDS } from '@/db/seed-data';
import { claimReportSlot } from '@/lib/http/report-slots';
import { MAX_CONCURRENT_REPORTS_PER_KEY } from '@/lib/platform/limits';
import { get } from '../support/api';
import { useTestDatabase } from '../support/db';
import { demoKey } from '../support/keys';

/**
 * Issue 9, point 1: a key may have only a few report requests running at once. Reports "running" are made
 * here by taking the key's slots directly, as the route wrapper does for each report it serves: holding
 * real requests open would hold the embedded database's single connection too.
 */
useTestDatabase();

/** Takes every slot of the key, as that many reports in flight would. */
function fillSlots(keyId: string): Promise<Array<() => void>> {
  return Promise.all(Array.from({ length: MAX_CONCURRENT_REPORTS_PER_KEY }, () => claimReportSlot(keyId)));
}

describe(`at most ${MAX_CONCURRENT_REPORTS_PER_KEY} report requests per key at once`, () => {
  it('answers one more report with 429 and Retry-After: 1 at once, and serves again when one finishes', async () => {
    const { raw, record } = await demoKey();
    const running = await fillSlots(record.id);
    for (const path of [
      '/api/v1/reports/totals',
      '/api/v1/reports/by-country',
      '/api/v1/reports/countries',
      '/api/v1/reports/countries/export',
    ]) {
      const refused = await get(path, { key: raw });
      expect(refused.status, path).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.headers.get('x-ratelimit-remaining')).not.toBeNull();
      expect(refused.json.detail).toBe(
        `This API key already has ${MAX_CONCURRENT_REPORTS_PER_KEY} report requests running; wait for one to finish.`,
      );
    }
    // Not reports: the key's sites and keys are still served meanwhile.
    expect((await get('/api/v1/sites', { key: raw })).status).toBe(200);
    expect((await get('/api/v1/api-keys', { key: raw })).status).toBe(200);
    // Another key of the same account has slots of its own.
    expect((await get('/api/v1/reports/totals', { key: (await demoKey()).raw })).status).toBe(200);

    running[0]();
    running[0](); // giving back twice frees one slot, not two
    expect((await get('/api/v1/reports/totals', { key: raw })).status).toBe(200);
    expect((await get('/api/v1/reports/totals', { key: raw })).status).toBe(200);
    const third = await claimReportSlot(record.id);
    expect((await get('/api/v1/reports/totals', { key: raw })).status).toBe(429);
    third();
    running[1]();
  });

  it('gives every slot back after answers, failures and streamed exports', async () => {
    const { raw, record } = await demoKey({ siteIds: [DEMO_IDS.sites.skyHopper] });
    const full = await demoKey();
    for (let i = 0; i <= MAX_CONCURRENT_REPORTS_PER_KEY; i++) {
      expect((await get('/api/v1/reports/totals', { key: raw })).status).toBe(200);
      expect((await get('/api/v1/reports/totals?fromDate=nope', { key: raw })).status).toBe(400);
      expect((await get('/api/v1/reports/countries', { key: raw })).status).toBe(403); // account-level only
      expect((await get('/api/v1/reports/countries/export?pageSize=1', { key: full.raw })).status).toBe(400);
      const exported = await get('/api/v1/reports/countries/export', {
        key: full.raw,
        headers: { accept: 'text/csv' },
      });
      expect(exported.status).toBe(200);
    }
    // Had any of them kept its slot, these would be refused.
    for (const key of [record.id, full.record.id]) (await fillSlots(key)).forEach((release) => release());
  });
});
