import { currentUser } from '@/lib/auth/session';
import { csvTable } from '@/lib/csv';
import { readCountriesView } from '@/lib/dashboard/countries';
import { isFilterProblem, readCountry } from '@/lib/dashboard/filters';
import { readSiteDay } from '@/lib/dashboard/url';
import { ValidationError } from '@/lib/errors';
import { STATUS_OF } from '@/lib/http/problem';
import { isDatabaseUnavailable } from '@/lib/http/unavailable';
import { PAGE_SIZE_MAX } from '@/lib/query';
import { BY_COUNTRY_COLUMNS, getRevenueByCountry, resolveReportRange } from '@/lib/services/reports';

/**
 * CSV of the Countries view as filtered and sorted, all pages: the dashboard's download (session cookie,
 * not an API key). There is at most one row per country, so one page of the largest size holds them all.
 */
export async function GET(request: Request) {
  const { searchParams } = new URL(request.url);
  try {
    const user = await currentUser();
    if (!user) return new Response('Sign in to download reports.', { status: 401 });
    const given = readSiteDay(searchParams);
    if (given instanceof ValidationError) throw given;
    const country = readCountry(searchParams);
    if (country instanceof ValidationError) throw country;
    const range = await resolveReportRange(user.principal, { ...given, country });
    const view = readCountriesView(searchParams);
    if (view instanceof ValidationError) throw view;
    // Every row, whatever page or page size the view was on.
    const report = await getRevenueByCountry(user.principal, { ...view, ...range, page: 1, pageSize: PAGE_SIZE_MAX });
    return new Response(csvTable(report.data, BY_COUNTRY_COLUMNS), {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="revenue-by-country_${range.fromDate}_${range.toDate}.csv"`,
        'Cache-Control': 'no-store',
      },
    });
  } catch (err) {
    // A bad filter (400) or a site of another account (403) is the caller's mistake, not a server error.
    if (isFilterProblem(err)) {
      const detail = err.errors?.map((e) => e.detail).join('\n') || err.detail;
      return new Response(`${detail}\n`, {
        status: STATUS_OF[err.code].status,
        headers: { 'Content-Type': 'text/plain; charset=utf-8' },
      });
    }
    // The database went away after proxy.ts found it answering: say so, as every page would.
    if (isDatabaseUnavailable(err)) {
      return new Response('The reporting database cannot be reached right now. Try again in a moment.\n', {
        status: 503,
        headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '5' },
      });
    }
    throw err;
  }
}
