/**
 * The dashboard's downloads, for a spreadsheet or an accountant rather than a program (the API's own CSV is
 * for those): columns named in words with their units, countries by name and code, money in dollars and cents
 * rounded from exact micro-dollars, ratios from the sums, and a totals row summed from the rows' own integers.
 * File names carry the range (and the country, when the dashboard is narrowed to one).
 */
import { countryName } from '@/lib/shared/countries';
import { csvCell } from '@/lib/shared/csv';
import { addSums, cpmOf, dollars, fillRateOf, NO_SUMS, type Sums } from '@/lib/shared/money';
import type { FilterExpr, FilterTerm } from '@/lib/query/filter';
import {
  getDailyRevenue,
  exportRows,
  getSumsByCountry,
  getRevenueBySite,
  type RevenueRow,
  type ReportRange,
} from '@/lib/reports';
import { PAGE_SIZE_MAX } from '@/lib/query';
import type { Principal } from '@/lib/access';
import type { CountriesView } from './countries';

/** The reports one can download, by their URL names (/export/daily …). */
export const DOWNLOAD_REPORTS = ['daily', 'sites', 'countries', 'rows'] as const;
export type DownloadName = (typeof DOWNLOAD_REPORTS)[number];

/** The downloads a page offers: the rows are account-wide (as in the API), so none for a Viewer of some sites. */
export const downloadsFor = (principal: Principal, reports: DownloadName[]): DownloadName[] =>
  principal.siteScope ? reports.filter((report) => report !== 'rows') : reports;

type Cell = string | number | null;
interface Column {
  header: string;
  cell: (s: Sums) => Cell;
}
const METRIC_COLUMNS: Column[] = [
  { header: 'Revenue (USD)', cell: (s) => dollars(s.revenueMicros) },
  { header: 'Impressions', cell: (s) => s.impressions },
  { header: 'Ad requests', cell: (s) => s.adRequests },
  { header: 'Clicks', cell: (s) => s.clicks },
  { header: 'eCPM (USD)', cell: (s) => cpmOf(s.revenueMicros, s.impressions).toFixed(2) },
  { header: 'Fill rate (%)', cell: (s) => (fillRateOf(s.impressions, s.adRequests) * 100).toFixed(2) },
];
/** The by-country report has no clicks. */
const WITHOUT_CLICKS = METRIC_COLUMNS.filter((c) => c.header !== 'Clicks');

const line = (cells: Cell[]) => cells.map(csvCell).join(',');

/**
 * A table of labelled rows and their metrics, with a totals row summed from the rows' integers: the label
 * columns say "Total" in the first and nothing in the rest.
 */
function sheet(labels: string[], metrics: Column[], rows: { labels: Cell[]; sums: Sums }[]): string {
  const total = rows.reduce((sum, row) => addSums(sum, row.sums), NO_SUMS);
  const lines = [
    line([...labels, ...metrics.map((m) => m.header)]),
    ...rows.map((row) => line([...row.labels, ...metrics.map((m) => m.cell(row.sums))])),
    line(['Total', ...labels.slice(1).map(() => null), ...metrics.map((m) => m.cell(total))]),
  ];
  return `${lines.join('\n')}\n`;
}

/** A download: its file name and its text, whole or streamed. */
export interface Download {
  fileName: string;
  body: string | AsyncIterable<string>;
}

const fileName = (name: string, range: ReportRange) =>
  `${name}_${range.fromDate}_${range.toDate}${range.country ? `_${range.country}` : ''}.csv`;

/** Each report's download for a principal, a range (sites, days, country) and, for countries, the table's view. */
export async function download(
  principal: Principal,
  name: DownloadName,
  range: ReportRange,
  countriesView: CountriesView,
): Promise<Download> {
  switch (name) {
    case 'daily': {
      const days = await getDailyRevenue(principal, range);
      const rows = days.map((d) => ({ labels: [d.day], sums: d }));
      return { fileName: fileName('daily-revenue', range), body: sheet(['Day'], METRIC_COLUMNS, rows) };
    }
    case 'sites': {
      const sites = await getRevenueBySite(principal, range);
      const rows = sites.map((s) => ({ labels: [s.name, s.siteId, s.url], sums: s }));
      return {
        fileName: fileName('revenue-by-site', range),
        body: sheet(['Site', 'Site ID', 'URL'], METRIC_COLUMNS, rows),
      };
    }
    case 'countries': {
      // Every row of the table as filtered and sorted, whatever page it was on (one row per country).
      const report = await getSumsByCountry(principal, {
        ...countriesView,
        ...range,
        page: 1,
        pageSize: PAGE_SIZE_MAX,
      });
      const rows = report.data.map((r) => ({
        labels: [r.country ? (countryName(r.country) ?? r.country) : 'Unknown', r.country],
        // The by-country report counts no clicks (and its download has no such column).
        sums: { ...r, clicks: 0 },
      }));
      return {
        fileName: fileName('revenue-by-country', range),
        body: sheet(['Country', 'Code'], WITHOUT_CLICKS, rows),
      };
    }
    case 'rows':
      return { fileName: fileName('revenue-rows', range), body: await rowsOf(principal, range) };
  }
}

/** The per-site, country and day rows of the range, streamed (a large account has millions); no totals. */
async function rowsOf(principal: Principal, range: ReportRange) {
  const term = (field: string, type: FilterTerm['type'], op: FilterTerm['op'], value: string): FilterTerm => ({
    field,
    type,
    op,
    value,
  });
  const filter: FilterExpr = [
    [term('createdAt', 'date', '>=', range.fromDate)],
    [term('createdAt', 'date', '<=', range.toDate)],
    ...(range.siteIds ? [range.siteIds.map((id) => term('gameId', 'uuid', '==', id))] : []),
    ...(range.country ? [[term('country', 'string', '==', range.country)]] : []),
  ];
  const labels = ['Day', 'Site', 'Site ID', 'Country', 'Code'];
  return exportRows(
    principal,
    { filter, search: null, sortBy: null, sortDirection: 'asc' },
    {
      header: line([...labels, ...METRIC_COLUMNS.map((m) => m.header)]),
      line: (row: RevenueRow) => {
        const country = row.country ? (countryName(row.country) ?? row.country) : 'Unknown';
        const cells = [row.day, row.gameName, row.siteId, country, row.country];
        return line([...cells, ...METRIC_COLUMNS.map((m) => m.cell(row))]);
      },
    },
  );
}
