import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS, DEMO_PASSWORD, DEMO_SITES } from '@/db/seed-data';
import { comparisonRange, periodBefore } from '@/lib/dashboard/comparison';
import { readFilterBar } from '@/lib/dashboard/filters';
import { loadHeadline, loadTrends, TOP_COUNTRIES } from '@/lib/dashboard/overview';
import { readSiteDay, readView, type SearchParams } from '@/lib/dashboard/url';
import { AppError, ValidationError } from '@/lib/shared/errors';
import { setRateLimitStore } from '@/lib/ratelimit';
import { createMemoryStore } from '@/lib/ratelimit/memory';
import { addDays, QueryParams, readQuery, todayUtc } from '@/lib/query';
import { byCountryQuery } from '@/lib/reports/field-sql';
import { getRevenueByCountry, getTotals, resolveReportRange, type ReportRange } from '@/lib/reports/reports';
import { type SessionPerson, signOut, personForSession } from '@/lib/identity/sessions';
import { signIn } from '@/lib/identity/sign-in';
import { listSites } from '@/lib/sites/sites';
import { listPublishers } from '@/lib/accounts/users';
import { useTestDatabase } from '../support/db';
import { createPublisher, createRevenue, createSite } from '../support/factories';
import { sessionPrincipal, sessionPersonOf } from '../support/keys';

const t = useTestDatabase();
const micros = (usd: number) => Math.round(usd * 1e6);
const DEMO_SITE_IDS = DEMO_SITES.filter((s) => s.userId === DEMO_IDS.users.demo).map((s) => s.id);
const RIVAL_SITE_IDS = DEMO_SITES.filter((s) => s.userId === DEMO_IDS.users.rival).map((s) => s.id);

/**
 * The whole overview, as the page shows it with the default comparison (the previous period): the cards'
 * figures, then the trends streamed in below. `previousTotals` are the cards' compared figures.
 */
async function loadOverview(user: SessionPerson, filters: ReportRange) {
  const compared = comparisonRange(filters, 'previous');
  const [headline, trends, bar] = await Promise.all([
    loadHeadline(user.principal, filters, 'previous', t.today),
    loadTrends(user.principal, filters, compared),
    readFilterBar(user.principal, { from: filters.fromDate, to: filters.toDate }),
  ]);
  return { ...headline, ...trends, sites: bar.sites, previousTotals: headline.comparison!.previous };
}

const demoUser: SessionPerson = sessionPersonOf(DEMO_IDS.users.demo, {
  name: 'Demo Games Ltd',
  email: 'demo@example.com',
});

/** The range a dashboard URL shows, as the page resolves it: read, then resolved for the account. */
async function rangeOf(params: SearchParams, user: SessionPerson = demoUser): Promise<ReportRange> {
  const given = readSiteDay(params);
  if (given instanceof ValidationError) throw new Error(JSON.stringify(given.errors));
  return resolveReportRange(user.principal, given);
}

/** The by-country report's input for a range, with its defaults for everything else. */
const byCountryOf = (range: ReportRange, view: Record<string, string> = {}) => ({
  ...byCountryQuery.parse(view),
  ...range,
});

/** Every country of the range, sorted like the overview's top list. */
async function allCountries(user: SessionPerson, filters: ReportRange) {
  return getRevenueByCountry(
    user.principal,
    byCountryOf(filters, { sortBy: 'revenueAmount', sortDirection: 'desc', pageSize: '1000' }),
  );
}

describe('loadOverview for the demo account', () => {
  it('shows the same figures as the API for the default view (last 30 days, all sites)', async () => {
    const filters = await rangeOf({});
    // A range without dates ends on the clock's day, which is the seed's unless the run crossed midnight.
    const today = todayUtc();
    expect(filters).toEqual({ fromDate: addDays(today, -29), toDate: today, siteIds: null, country: null });
    const overview = await loadOverview(demoUser, filters);

    expect(overview.totals).toEqual(
      await getTotals(demoUser.principal, { fromDate: null, toDate: null, siteIds: null }),
    );
    // Like for like: the range ends today, so the change compares its 29 complete days with the first 29
    // days of the 30 before it.
    const { comparison } = overview;
    expect(comparison!.range).toEqual(periodBefore(filters));
    expect(comparison!.excludesToday).toBe(true);
    expect(comparison!.current).toEqual(
      await getTotals(demoUser.principal, { ...filters, toDate: addDays(t.today, -1) }),
    );
    expect(overview.previousTotals).toEqual(
      await getTotals(demoUser.principal, {
        ...filters,
        fromDate: addDays(filters.fromDate, -30),
        toDate: addDays(filters.fromDate, -2),
      }),
    );
    expect(overview.totals.totalRevenue).toBeGreaterThan(0);
    expect(overview.previousTotals.totalRevenue).toBeGreaterThan(0);

    expect(overview.daily.map((p) => p.day)).toEqual(
      Array.from({ length: 30 }, (_, i) => addDays(filters.fromDate, i)),
    );
    expect(overview.previousDaily).toHaveLength(30);
    expect(overview.previousDaily.at(-1)?.day).toBe(addDays(filters.fromDate, -1));
    // The chart adds up to the KPI cards.
    expect(overview.daily.reduce((s, p) => s + micros(p.revenue), 0)).toBe(micros(overview.totals.totalRevenue));
    expect(overview.daily.reduce((s, p) => s + p.impressions, 0)).toBe(overview.totals.totalImpressions);
    expect(overview.previousDaily.slice(0, 29).reduce((s, p) => s + p.adRequests, 0)).toBe(
      overview.previousTotals.totalRequests,
    );

    expect(overview.sites).toEqual(await listSites(demoUser.principal));
    expect(overview.sites.map((s) => s.siteId).sort()).toEqual([...DEMO_SITE_IDS].sort());
    // The top sites add up to the cards too.
    expect(overview.siteFigures.reduce((s, site) => s + micros(site.revenue), 0)).toBe(
      micros(overview.totals.totalRevenue),
    );
  });

  it('lists at most 10 top countries by revenue, descending, and counts all countries', async () => {
    const filters = await rangeOf({});
    const [overview, all] = await Promise.all([loadOverview(demoUser, filters), allCountries(demoUser, filters)]);
    expect(TOP_COUNTRIES).toBe(10);
    expect(all.meta.totalRows).toBeGreaterThan(TOP_COUNTRIES);
    expect(overview.topCountries).toHaveLength(TOP_COUNTRIES);
    expect(overview.countryCount).toBe(all.meta.totalRows);
    expect(overview.topCountries).toEqual(all.data.slice(0, TOP_COUNTRIES));
    const revenues = overview.topCountries.map((c) => c.revenueAmount);
    expect(revenues).toEqual([...revenues].sort((a, b) => b - a));
    // No country outside the top list earned more than the last one in it.
    expect(Math.max(...all.data.slice(TOP_COUNTRIES).map((c) => c.revenueAmount))).toBeLessThanOrEqual(
      revenues.at(-1)!,
    );
  });

  it('follows the site filter and other ranges, still equal to the API', async () => {
    const monthStart = `${t.today.slice(0, 7)}-01`;
    const cases: Record<string, string>[] = [
      { sites: DEMO_SITE_IDS[1] },
      { sites: DEMO_SITE_IDS.slice(0, 3).join(','), from: addDays(t.today, -89) },
      { from: `${addDays(monthStart, -1).slice(0, 7)}-01`, to: addDays(monthStart, -1) },
      { from: addDays(t.today, -364) },
    ];
    for (const params of cases) {
      const filters = await rangeOf(params);
      const overview = await loadOverview(demoUser, filters);
      const [totals, all] = await Promise.all([
        getTotals(demoUser.principal, filters),
        allCountries(demoUser, filters),
      ]);
      expect(overview.totals, JSON.stringify(params)).toEqual(totals);
      expect(overview.countryCount).toBe(all.meta.totalRows);
      expect(overview.topCountries).toEqual(all.data.slice(0, TOP_COUNTRIES));
      expect(overview.daily.reduce((s, p) => s + micros(p.revenue), 0)).toBe(micros(totals.totalRevenue));
    }
  });

  it("works for a user signed in the real way, and refuses the rival's site", async () => {
    setRateLimitStore(createMemoryStore());
    const result = await signIn('demo@example.com', DEMO_PASSWORD, '192.0.2.77');
    if (!result.ok) throw new Error(JSON.stringify(result));
    try {
      const user = await personForSession(result.token);
      expect(user).toEqual(demoUser);
      const filters = await rangeOf({ from: addDays(t.today, -6) });
      expect((await loadOverview(user!, filters)).totals).toEqual(await getTotals(demoUser.principal, filters));
      for (const refused of [
        loadOverview(user!, { ...filters, siteIds: [RIVAL_SITE_IDS[0]] }),
        rangeOf({ sites: RIVAL_SITE_IDS[0] }),
      ]) {
        const err = await refused.catch((e: unknown) => e);
        expect(err).toBeInstanceOf(AppError);
        expect((err as AppError).code).toBe('forbidden');
      }
    } finally {
      await signOut(result.token);
    }
  });
});

afterEach(() => setRateLimitStore(undefined));

describe('loadOverview for an account of its own, exactly', () => {
  it('ranks its countries, counts them and compares with the previous period', async () => {
    const user = await createPublisher(t.db);
    const site = await createSite(t.db, user.id);
    await createRevenue(t.db, site.id, [
      { day: '2025-06-10', country: 'DE', revenueMicros: 2_000_000, impressions: 1_000, adRequests: 2_000 },
      { day: '2025-06-11', country: 'US', revenueMicros: 5_000_000, impressions: 2_000, adRequests: 2_000 },
      { day: '2025-06-12', country: 'FR', revenueMicros: 1_000_000, impressions: 500, adRequests: 1_000 },
      { day: '2025-06-12', country: 'DE', revenueMicros: 500_000, impressions: 100, adRequests: 100 },
      // The previous period (2025-06-07..09).
      { day: '2025-06-08', country: 'US', revenueMicros: 4_250_000, impressions: 1_000, adRequests: 1_000 },
    ]);
    const session: SessionPerson = sessionPersonOf(user.id, { name: user.name, email: user.email });
    const overview = await loadOverview(session, await rangeOf({ from: '2025-06-10', to: '2025-06-12' }, session));

    expect(overview.totals).toEqual({
      totalImpressions: 3_600,
      totalRequests: 5_100,
      averageCpm: expect.closeTo(8.5 / 3.6, 12),
      totalRevenue: 8.5,
      fillRate: expect.closeTo(3_600 / 5_100, 12),
    });
    expect(overview.previousTotals).toEqual({
      totalImpressions: 1_000,
      totalRequests: 1_000,
      averageCpm: 4.25,
      totalRevenue: 4.25,
      fillRate: 1,
    });
    expect(overview.topCountries.map((c) => [c.country, c.revenueAmount])).toEqual([
      ['US', 5],
      ['DE', 2.5],
      ['FR', 1],
    ]);
    expect(overview.countryCount).toBe(3);
    expect(overview.daily.map((p) => p.revenue)).toEqual([2, 5, 1.5]);
    expect(overview.previousDaily.map((p) => [p.day, p.revenue])).toEqual([
      ['2025-06-07', 0],
      ['2025-06-08', 4.25],
      ['2025-06-09', 0],
    ]);
    expect(overview.sites.map((s) => s.siteId)).toEqual([site.id]);
  });
});

describe("an account's default range", () => {
  it("is the range of a dashboard URL without dates, as it is the API's (resolved in one place, reportScope)", async () => {
    const user = await createPublisher(t.db, { defaultRangeDays: 7 });
    const session: SessionPerson = sessionPersonOf(user.id, { name: user.name, email: user.email });
    expect(await rangeOf({}, session)).toEqual({
      fromDate: addDays(todayUtc(), -6),
      toDate: todayUtc(),
      siteIds: null,
      country: null,
    });
    expect(await rangeOf({ to: '2026-01-31' }, session)).toMatchObject({
      fromDate: '2026-01-25',
      toDate: '2026-01-31',
    });
  });
});

describe("the Countries page's view (readView) against the by-country service", () => {
  it('ignores an unknown URL parameter instead of failing, and answers like the API', async () => {
    const params = {
      from: addDays(t.today, -13),
      sortBy: 'impressions',
      SortDirection: 'desc',
      pagesize: '5',
      page: '2',
    };
    const range = await rangeOf(params);
    const view = (p: SearchParams) => {
      const v = readView(byCountryQuery, p);
      if (v instanceof ValidationError) throw new Error(JSON.stringify(v.errors));
      return getRevenueByCountry(demoUser.principal, { ...v, ...range });
    };
    const plain = await view(params);
    expect(await view({ ...params, utm_campaign: 'spring', fbclid: 'abc', fromDate: '2000-01-01' })).toEqual(plain);
    const apiQuery = QueryParams.from({
      fromDate: range.fromDate,
      sortBy: 'impressions',
      sortDirection: 'desc',
      pageSize: '5',
      page: '2',
    });
    const api = await getRevenueByCountry(
      demoUser.principal,
      readQuery(byCountryQuery, apiQuery, { rejectUnknown: true }),
    );
    expect(plain).toEqual(api);
    expect(plain.meta).toMatchObject({ page: 2, pageSize: 5, sortBy: 'impressions', sortDirection: 'desc' });
    expect(plain.data).toHaveLength(5);
  });

  it('passes Search and FilterList through', async () => {
    const view = readView(byCountryQuery, { Search: 'germany', 'FilterList[country]': 'DE,FR' });
    if (view instanceof ValidationError) throw view;
    const page = await getRevenueByCountry(demoUser.principal, { ...view, ...(await rangeOf({})) });
    expect(page.data.map((c) => c.country)).toEqual(['DE']);
  });

  it('turns a bad grammar value into a ValidationError (the page shows it), not a crash', () => {
    const err = readView(byCountryQuery, { sortBy: 'nope' });
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).errors?.[0]?.parameter).toBe('sortBy');
  });
});

describe('listPublishers', () => {
  const admin = sessionPrincipal(DEMO_IDS.users.admin, 'admin');
  let own: { id: string; email: string };

  beforeAll(async () => {
    own = await createPublisher(t.db, { name: 'Zz Listed Publisher' });
  });

  it('gives an operator every publisher account and no operator accounts', async () => {
    const list = await listPublishers(admin);
    expect(list.length).toBeGreaterThanOrEqual(3);
    expect(list.every((u) => u.role === 'publisher')).toBe(true);
    const ids = list.map((u) => u.id);
    expect(ids).toContain(DEMO_IDS.users.demo);
    expect(ids).toContain(DEMO_IDS.users.rival);
    expect(ids).toContain(own.id);
    expect(ids).not.toContain(DEMO_IDS.users.admin);
    expect(new Set(ids).size).toBe(ids.length);
    expect(list.find((u) => u.id === DEMO_IDS.users.demo)).toEqual({
      id: DEMO_IDS.users.demo,
      email: 'demo@example.com',
      name: 'Demo Games Ltd',
      role: 'publisher',
    });
    // Never a password hash or anything beyond the summary.
    for (const u of list) expect(Object.keys(u).sort()).toEqual(['email', 'id', 'name', 'role']);
  });

  it('refuses a publisher with a 403', async () => {
    for (const principal of [sessionPrincipal(DEMO_IDS.users.demo), sessionPrincipal(own.id)]) {
      const err = await listPublishers(principal).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('forbidden');
    }
  });
});
