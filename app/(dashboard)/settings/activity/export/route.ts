import { isOperator } from '@/lib/access';
import { ACTIVITY_COLUMNS, listActivity } from '@/lib/activity';
import { activityInput, readActivityView } from '@/lib/dashboard/activity';
import { downloadRoute } from '@/lib/dashboard/cookie-route';
import { DOWNLOADS } from '@/lib/dashboard/download-access';
import { todayUtc } from '@/lib/query';
import { csvTable } from '@/lib/shared/csv';

/** Pages of this size are read until the end, up to the cap: a year of a busy account's events fits. */
const PAGE = 1000;
const MAX_EVENTS = 100_000;

/**
 * The activity log as CSV, with the page's filters: the account's own (the one `?as=` names) for its Owners and
 * Admins, every account's for an admin. The same columns as the API's text/csv answer (details as JSON text).
 */
export const { GET, HEAD } = downloadRoute({
  ...DOWNLOADS.activity,
  heavy: true,
  async handle({ principal, searchParams }) {
    const view = readActivityView(Object.fromEntries(searchParams), isOperator(principal));
    const rows = [];
    for (let page = 1; rows.length < MAX_EVENTS; page++) {
      const { data, meta } = await listActivity(principal, activityInput(view, { page, pageSize: PAGE }));
      rows.push(...data);
      if (page >= meta.totalPages) break;
    }
    return { fileName: `activity-${todayUtc()}.csv`, type: 'text/csv', body: csvTable(rows, ACTIVITY_COLUMNS) };
  },
});
