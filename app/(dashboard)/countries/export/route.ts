import { currentUser } from '@/lib/auth/session';
import { countriesQuery } from '@/lib/dashboard/countries';
import { isFilterProblem, readFilters } from '@/lib/dashboard/filters';
import { withChanges } from '@/lib/dashboard/url';
import { ValidationError } from '@/lib/errors';
import { csvTable } from '@/lib/csv';
import { STATUS_OF } from '@/lib/http/problem';
import { BY_COUNTRY_COLUMNS, getRevenueByCountry } from '@/lib/services/reports';

/**
 * CSV of the Countries view as filtered and sorted, all pages: the dashboard's download (session cookie,
 * not an API key). There is at most one row per country, so one page of 1000 rows holds them all.
 */
export async function GET(request: Request) {
  const user = await currentUser();
  if (!user) return new Response('Sign in to download reports.', { status: 401 });
  const url = new URL(request.url);
  const searchParams = Object.fromEntries(url.searchParams);
  // Every row in one page, whatever page or page size (in any letter case) the view was on.
  const allRows = Object.fromEntries(withChanges(url.search, { page: null, pageSize: '1000' }));
  const filters = readFilters(searchParams, undefined, user.defaultRangeDays);
  try {
    if (filters instanceof ValidationError) throw filters;
    const report = await getRevenueByCountry(user.principal, countriesQuery(allRows, filters));
    const csv = csvTable(report.data, BY_COUNTRY_COLUMNS);
    return new Response(csv, {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="revenue-by-country_${filters.from}_${filters.to}.csv"`,
        'Cache-Control': 'no-store',
      },
    });
  } catch (err) {
    // A bad filter (400) or a site of another account (403) is the caller's mistake, not a server error.
    if (isFilterProblem(err)) {
      const detail = err.errors?.map((e) => e.detail).join('\n') || err.detail;
      return new Response(`${detail}\n`, { status: STATUS_OF[err.code].status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
    }
    throw err;
  }
}
