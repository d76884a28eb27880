/**
 * The dashboard's downloads (issue 10, point 7): by day, by site, by country (the Countries table) and the
 * rows of a range, money in dollars and cents, and totals rows equal to the totals report to the cent,
 * for the whole account, some sites and one country.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_IDS } from '@/db/seed-data';
import { readCountriesView } from '@/lib/dashboard/countries';
import { download, type DownloadName } from '@/lib/dashboard/downloads';
import { dollars } from '@/lib/shared/money';
import { getTotals, type ReportRange } from '@/lib/reports/reports';
import type { SessionPerson } from '@/lib/identity/sessions';
import { useTestDatabase } from '../support/db';
import { sessionPersonOf } from '../support/keys';
import { DEMO_SITE_IDS, micros, shiftDay, sqlRows, uuidArray } from './reports-helpers';
import { sql } from 'drizzle-orm';

const t = useTestDatabase();
const demo: SessionPerson = sessionPersonOf(DEMO_IDS.users.demo, { name: 'Demo', email: 'demo@example.com' });
const defaultView = () =>
  readCountriesView(new URLSearchParams()) as Exclude<ReturnType<typeof readCountriesView>, Error>;

/** RFC 4180 lines into cells (quoted cells may hold commas and doubled quotes). */
function parse(csv: string): string[][] {
  return csv
    .trimEnd()
    .split('\n')
    .map((line) =>
      [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)]
        .slice(0, -1)
        .map((m) => m[1].replace(/^"|"$/g, '').replaceAll('""', '"')),
    );
}

async function textOf(name: DownloadName, range: ReportRange, view = defaultView()) {
  const { fileName, body } = await download(demo.principal, name, range, view);
  let text = '';
  if (typeof body === 'string') text = body;
  else for await (const chunk of body) text += chunk;
  return { fileName, rows: parse(text) };
}

describe('dollars', () => {
  it('rounds exact micro-dollars to the cent, half a cent up', () => {
    expect(dollars(0)).toBe('0.00');
    expect(dollars(1_004_999)).toBe('1.00');
    expect(dollars(1_005_000)).toBe('1.01');
    expect(dollars(123_456_789_012)).toBe('123456.79');
    expect(dollars(-2_500_000)).toBe('-2.50');
  });
});

describe('downloads', () => {
  const ranges = () => {
    const toDate = shiftDay(t.today, -3);
    const base = { fromDate: shiftDay(toDate, -44), toDate, siteIds: null, country: null };
    return [
      base,
      { ...base, siteIds: [DEMO_SITE_IDS[0], DEMO_SITE_IDS[2]] },
      { ...base, country: 'DE' },
      { ...base, siteIds: [DEMO_SITE_IDS[1]], country: 'US' },
    ] as ReportRange[];
  };

  it('each has a header in words, a row per item and a totals row equal to the totals report', async () => {
    for (const range of ranges()) {
      const totals = await getTotals(demo.principal, range);
      const total = [
        dollars(micros(totals.totalRevenue)),
        String(totals.totalImpressions),
        String(totals.totalRequests),
      ];
      const daily = await textOf('daily', range);
      expect(daily.rows[0]).toEqual([
        'Day',
        'Revenue (USD)',
        'Impressions',
        'Ad requests',
        'Clicks',
        'eCPM (USD)',
        'Fill rate (%)',
      ]);
      expect(daily.rows).toHaveLength(45 + 2);
      expect(daily.rows.at(-1)!.slice(0, 4)).toEqual(['Total', ...total]);
      expect(daily.rows.at(-1)![5]).toBe(totals.averageCpm.toFixed(2));
      expect(daily.rows.at(-1)![6]).toBe((totals.fillRate * 100).toFixed(2));

      const sites = await textOf('sites', range);
      expect(sites.rows[0].slice(0, 4)).toEqual(['Site', 'Site ID', 'URL', 'Revenue (USD)']);
      expect(sites.rows.length).toBe((range.siteIds ?? DEMO_SITE_IDS).length + 2);
      expect(sites.rows.at(-1)!.slice(0, 6)).toEqual(['Total', '', '', ...total]);

      const countries = await textOf('countries', range);
      expect(countries.rows[0]).toEqual([
        'Country',
        'Code',
        'Revenue (USD)',
        'Impressions',
        'Ad requests',
        'eCPM (USD)',
        'Fill rate (%)',
      ]);
      expect(countries.rows.at(-1)!.slice(0, 5)).toEqual(['Total', '', ...total]);
      if (range.country) expect(countries.rows.slice(1, -1).map((r) => r[1])).toEqual([range.country]);
      expect(countries.fileName).toBe(
        `revenue-by-country_${range.fromDate}_${range.toDate}${range.country ? `_${range.country}` : ''}.csv`,
      );
    }
  });

  it('names countries and gives their codes, sorted as the table is, all pages', async () => {
    const range = ranges()[0];
    const { rows } = await textOf('countries', range);
    const body = rows.slice(1, -1);
    expect(body.find((r) => r[1] === 'DE')![0]).toBe('Germany');
    const revenue = body.map((r) => Number(r[2]));
    expect(revenue).toEqual([...revenue].sort((a, b) => b - a));
    const [{ n }] = await sqlRows<{ n: string }>(
      t.db,
      sql`select count(distinct country)::text as n from revenue_daily where site_id = any(${uuidArray(DEMO_SITE_IDS)})
          and day between ${range.fromDate}::date and ${range.toDate}::date`,
    );
    expect(body).toHaveLength(Number(n));
  });

  it('gives every per-site, country and day row of the range, and only those', async () => {
    for (const range of ranges()) {
      const { rows, fileName } = await textOf('rows', range);
      expect(fileName).toMatch(/^revenue-rows_/);
      expect(rows[0]).toEqual([
        'Day',
        'Site',
        'Site ID',
        'Country',
        'Code',
        'Revenue (USD)',
        'Impressions',
        'Ad requests',
        'Clicks',
        'eCPM (USD)',
        'Fill rate (%)',
      ]);
      const sites = range.siteIds ?? DEMO_SITE_IDS;
      const expected = await sqlRows<{ day: string; site: string; country: string; micros: string }>(
        t.db,
        sql`select day::text as day, site_id::text as site, trim(country) as country, revenue_micros::text as micros
            from revenue_daily where site_id = any(${uuidArray(sites)})
            and day between ${range.fromDate}::date and ${range.toDate}::date
            ${range.country ? sql`and country = ${range.country}` : sql``} order by day, site_id, country`,
      );
      const body = rows.slice(1);
      expect(body).toHaveLength(expected.length);
      expect(body.map((r) => [r[0], r[2], r[4], r[5]])).toEqual(
        expected.map((e) => [e.day, e.site, e.country, dollars(Number(e.micros))]),
      );
    }
  });
});
