import { currentUser } from '@/lib/dashboard/session';
import { readCountriesView } from '@/lib/dashboard/countries';
import { download, EXPORTS, type ExportName } from '@/lib/dashboard/exports';
import { isFilterProblem, readCountry } from '@/lib/dashboard/filters';
import { readSiteDay } from '@/lib/dashboard/url';
import { viewerOf } from '@/lib/dashboard/viewer';
import { ValidationError } from '@/lib/shared/errors';
import { ProblemError, STATUS_OF } from '@/lib/http/problem';
import { StreamedBody, streamResponse, withoutBody } from '@/lib/http/render';
import { claimExportSlot } from '@/lib/http/report-slots';
import { isDatabaseUnavailable } from '@/lib/http/unavailable';
import { resolveReportRange } from '@/lib/reports';
import { readDataVersion } from '@/lib/accounts';
import { accountValidators, clientCopyIsCurrent, notModified, setValidators } from '@/lib/http/validators';

const text = (body: string, status: number, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...headers } });

/**
 * The dashboard's downloads (lib/dashboard/exports.ts): /export/daily, /sites, /countries and /rows, each for
 * the view's range, sites and country (the Countries table also its Filter, Search and sort), with the session
 * cookie rather than an API key. Problems are plain text: the browser shows them in place of a file.
 */
export async function GET(request: Request, { params }: { params: Promise<{ report: string }> }) {
  return answer(request, params);
}

/** GET without the body: a streamed body is cancelled unread, so it opens no cursor and holds no slot. */
export async function HEAD(request: Request, { params }: { params: Promise<{ report: string }> }) {
  return withoutBody(await answer(request, params));
}

async function answer(request: Request, params: Promise<{ report: string }>) {
  const { report } = await params;
  if (!EXPORTS.includes(report as ExportName)) return text(`No such report: ${report}.\n`, 404);
  const { searchParams } = new URL(request.url);
  try {
    const user = await currentUser();
    if (!user) return text('Sign in to download reports.\n', 401);
    const viewer = await viewerOf(user, searchParams);
    if (viewer.kind === 'choose') return text('Choose a publisher (?as=) to download their reports.\n', 400);
    if (viewer.kind === 'refused') return text(`${viewer.error.detail}\n`, STATUS_OF[viewer.error.code].status);
    const given = readSiteDay(searchParams);
    if (given instanceof ValidationError) throw given;
    const country = readCountry(searchParams);
    if (country instanceof ValidationError) throw country;
    const view = readCountriesView(searchParams);
    if (view instanceof ValidationError) throw view;
    const range = await resolveReportRange(viewer.principal, { ...given, country });
    // Revalidated like the API's reports: nothing is computed for a copy the browser already has.
    const data = await readDataVersion(viewer.principal.userId);
    const validators = accountValidators(viewer.principal, data, request, 'text/csv');
    if (clientCopyIsCurrent(request, validators)) return notModified(new Headers(), validators);
    const { fileName, body } = await download(viewer.principal, report as ExportName, range, view);
    const headers = new Headers();
    setValidators(headers, validators);
    if (typeof body !== 'string') {
      // Counted with the account's API exports: each holds a database connection while it downloads.
      const release = await claimExportSlot(viewer.principal.userId);
      return streamResponse(new StreamedBody(body, fileName, viewer.principal.userId), 'text/csv', headers, {
        release,
      });
    }
    headers.set('Content-Type', 'text/csv; charset=utf-8');
    headers.set('Content-Disposition', `attachment; filename="${fileName}"`);
    return new Response(body, { headers });
  } catch (err) {
    if (err instanceof ProblemError) return text(`${err.detail}\n`, err.status, err.headers);
    // A bad filter (400) or a site of another account (403) is the caller's mistake, not a server error.
    if (isFilterProblem(err)) {
      return text(`${err.errors?.map((e) => e.detail).join('\n') || err.detail}\n`, STATUS_OF[err.code].status);
    }
    // The database went away after proxy.ts found it answering: say so, as every page would.
    if (isDatabaseUnavailable(err)) {
      return text('The reporting database cannot be reached right now. Try again in a moment.\n', 503, {
        'Retry-After': '5',
      });
    }
    throw err;
  }
}

// The most Vercel allows on every plan with fluid compute (README, "Deploying to Vercel"); the export ends itself
// a little earlier, at EXPORT_WALL_CLOCK_MS (lib/platform/limits.ts).
export const maxDuration = 300;
