import { downloadRoute } from '@/lib/dashboard/cookie-route';
import { DOWNLOADS } from '@/lib/dashboard/download-access';
import { readCountriesView } from '@/lib/dashboard/countries';
import { download, DOWNLOAD_REPORTS, type DownloadName } from '@/lib/dashboard/downloads';
import { readCountry } from '@/lib/dashboard/filters';
import { readSiteDay } from '@/lib/dashboard/url';
import { notFound, ValidationError } from '@/lib/shared/errors';
import { resolveReportRange } from '@/lib/reports';

const isDownloadName = (name: string): name is DownloadName => DOWNLOAD_REPORTS.includes(name as DownloadName);

/** The URL's value, or the 400 it is. */
function valid<T>(value: T | ValidationError): T {
  if (value instanceof ValidationError) throw value;
  return value;
}

/**
 * The dashboard's downloads (lib/dashboard/downloads.ts): /export/daily, /sites, /countries and /rows, each for
 * the view's range, sites and country (the Countries table also its Filter, Search and sort), with the session
 * cookie rather than an API key. Revalidated like the API's reports: nothing is computed for a copy the browser
 * already has. The rows are streamed, holding an export slot (lib/dashboard/cookie-route.ts).
 */
export const { GET, HEAD } = downloadRoute<{ report: string }>({
  ...DOWNLOADS.reports,
  accountData: { type: 'text/csv' },
  async handle({ principal, params: { report }, searchParams }) {
    if (!isDownloadName(report)) throw notFound(`No such report: ${report}.`);
    const given = valid(readSiteDay(searchParams));
    const country = valid(readCountry(searchParams));
    const view = valid(readCountriesView(searchParams));
    const range = await resolveReportRange(principal, { ...given, country });
    const { fileName, body } = await download(principal, report, range, view);
    return { fileName, type: 'text/csv', body };
  },
});

// The most Vercel allows on every plan with fluid compute (README, "Deploying to Vercel"); the export ends itself
// a little earlier, at EXPORT_WALL_CLOCK_MS (lib/platform/limits.ts).
export const maxDuration = 300;
