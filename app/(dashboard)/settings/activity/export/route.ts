import { AUDIT_EVENT_COLUMNS, listAuditEvents } from '@/lib/audit';
import { activityInput, readActivityView } from '@/lib/dashboard/activity';
import { currentUser } from '@/lib/dashboard/session';
import { todayUtc } from '@/lib/query';
import { csvTable } from '@/lib/shared/csv';

/** Pages of this size are read until the end, up to the cap: a year of a busy account's events fits. */
const PAGE = 1000;
const MAX_EVENTS = 100_000;

/**
 * The activity log as CSV, with the page's filters: the account's own for a publisher, every account's for an
 * admin. The same columns as the API's text/csv answer (details as JSON text).
 */
export async function GET(request: Request) {
  const user = await currentUser();
  if (!user) return new Response('Sign in to download the activity log.\n', { status: 401 });
  const { principal } = user;
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const view = readActivityView(params, principal.role === 'admin');
  const rows = [];
  for (let page = 1; rows.length < MAX_EVENTS; page++) {
    const { data, meta } = await listAuditEvents(principal, activityInput(view, { page, pageSize: PAGE }));
    rows.push(...data);
    if (page >= meta.totalPages) break;
  }
  return new Response(csvTable(rows, AUDIT_EVENT_COLUMNS), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="activity-${todayUtc()}.csv"`,
      'Cache-Control': 'no-store',
    },
  });
}
