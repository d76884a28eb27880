/**
 * Days before year 1000 (lib/query/dates.ts FIRST_DAY) after the default range is applied: `toDate=1000-01-01`
 * with the default 30 days would begin in year 999, where the day arithmetic stops (new Array(NaN) on the
 * Sites page). Refused once, where every report's range is resolved (reportScope): a 400 naming toDate on
 * every report endpoint, the page's own message on the dashboard. The browser's view is in
 * e2e/dashboard-early-dates.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_IDS } from '@/db/seed-data';
import { readFilterBar } from '@/lib/dashboard/filters';
import { loadCountryBreakdown, readCountriesView } from '@/lib/dashboard/countries';
import { download, DOWNLOAD_REPORTS } from '@/lib/dashboard/downloads';
import { loadHeadline, loadTrends } from '@/lib/dashboard/overview';
import { loadSiteBreakdown } from '@/lib/dashboard/sites';
import { ENDPOINTS } from '@/lib/api/endpoints';
import { AppError, ValidationError } from '@/lib/shared/errors';
import { FIRST_DAY, todayUtc } from '@/lib/query/dates';
import { type ReportRange, resolveReportRange } from '@/lib/reports/reports';
import { getRevenueBySite } from '@/lib/reports/by-site';
import { get } from '../support/api';
import { useTestDatabase } from '../support/db';
import { demoKey, sessionPrincipal } from '../support/keys';
import { expectProblem } from './reports-helpers';

const t = useTestDatabase();
const demo = sessionPrincipal(DEMO_IDS.users.demo);
const TOO_EARLY = /^toDate 1000-01-01 with the default range of 30 days would begin on 0999-12-03, before 1000-01-01/;

/** The report operations whose query takes a range, and those that filter days with Filter=createdAt… instead. */
const reports = ENDPOINTS.filter((e) => e.tag === 'Reports');
const ranged = reports.filter((e) => e.query && 'toDate' in e.query.in.shape);
const rowEndpoints = reports.filter((e) => e.query && 'Filter' in e.query.in.shape && !('toDate' in e.query.in.shape));

describe('the API', () => {
  it('knows which report operations take a range and which filter days', () => {
    expect(ranged.map((e) => e.operationId).sort()).toEqual(['getRevenueByCountry', 'getTotals']);
    expect(rowEndpoints.map((e) => e.operationId).sort()).toEqual([
      'exportCountryRows',
      'getCountryRows',
      'getLegacyCountryRows',
    ]);
  });

  it.each(ranged.map((e) => [e.operationId, e.path]))(
    '%s: a default range reaching before 1000-01-01 is a 400 naming toDate; one that does not is a 200',
    async (_, path) => {
      const { raw } = await demoKey();
      const res = await get(`${path}?toDate=1000-01-01`, { key: raw });
      expectProblem(res, 400, 'toDate');
      expect(res.json.errors[0].detail).toMatch(TOO_EARLY);
      expect((await get(`${path}?toDate=1000-01-30`, { key: raw })).status).toBe(200);
      expect((await get(`${path}?fromDate=${FIRST_DAY}&toDate=${FIRST_DAY}`, { key: raw })).status).toBe(200);
      expectProblem(await get(`${path}?fromDate=0999-12-31&toDate=1000-01-01`, { key: raw }), 400, 'fromDate');
    },
  );

  it.each(rowEndpoints.map((e) => [e.operationId, e.path]))(
    '%s: a day in Filter is from 1000-01-01 on, and the earliest ones answer 200',
    async (_, path) => {
      const { raw } = await demoKey();
      const filter = (expr: string) => `${path}?Filter=${encodeURIComponent(expr)}`;
      expectProblem(await get(filter('createdAt>=0999-12-31'), { key: raw }), 400, 'Filter');
      for (const expr of [
        'createdAt<=1000-01-01',
        'updatedAt<1000-01-02',
        'createdAt>=1000-01-01;createdAt<1000-02-01',
      ]) {
        const res = await get(filter(expr), { key: raw });
        expect(res.status, `${expr}: ${res.text.slice(0, 300)}`).toBe(200);
      }
    },
  );
});

describe('the dashboard', () => {
  const early: ReportRange = { fromDate: FIRST_DAY, toDate: '1000-01-10', siteIds: null, country: null };

  it("shows the filter bar's message for ?to=1000-01-01, with the account's default range to start again from", async () => {
    const bar = await readFilterBar(demo, { to: '1000-01-01' });
    expect(bar.problem).toBeInstanceOf(AppError);
    expect(bar.problem?.errors?.[0]).toMatchObject({ parameter: 'toDate', detail: expect.stringMatching(TOO_EARLY) });
    // The clock's day: the seed's unless the run crossed midnight.
    expect(bar.range.toDate).toBe(todayUtc());
  });

  it('refuses the range in the one place every view and download resolves it', async () => {
    const refused = resolveReportRange(demo, { fromDate: null, toDate: '1000-01-01', siteIds: null, country: null });
    await expect(refused).rejects.toBeInstanceOf(ValidationError);
    await expect(getRevenueBySite(demo, { fromDate: null, toDate: '1000-01-01', siteIds: null })).rejects.toMatchObject(
      { code: 'invalid' },
    );
  });

  it('answers the earliest days, compared with nothing when the compared period would lie before them', async () => {
    // Without a comparison the views work from the first day on.
    const sites = await loadSiteBreakdown(demo, early, 'none', t.today);
    expect(sites.rows.length).toBeGreaterThan(0);
    for (const site of sites.rows) expect(site.series).toEqual(new Array(10).fill(0));
    const trends = await loadTrends(demo, early, null);
    expect(trends.daily.map((d) => d.day)).toHaveLength(10);
    // The previous period of 1000-01-01 … 1000-01-10 lies in year 999: the views show no comparison.
    const view = readCountriesView(new URLSearchParams());
    if (view instanceof ValidationError) throw view;
    const headline = await loadHeadline(demo, early, 'previous', t.today);
    expect(headline.comparison).toBeNull();
    expect((await loadSiteBreakdown(demo, early, 'previous', t.today)).rows.length).toBeGreaterThan(0);
    expect((await loadCountryBreakdown(demo, view, early, 'year', t.today)).compared).toBeNull();
  });

  it('downloads every export of the earliest days', async () => {
    const view = readCountriesView(new URLSearchParams());
    if (view instanceof ValidationError) throw view;
    for (const name of DOWNLOAD_REPORTS) {
      const { body } = await download(demo, name, early, view);
      let text = '';
      if (typeof body === 'string') text = body;
      else for await (const chunk of body) text += typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk);
      expect(text.split('\n')[0], name).toMatch(/\w/);
    }
  });
});
