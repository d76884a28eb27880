/**
 * The Alerts page's view: open or all, which kind, which page, read from the URL and turned into the input the
 * API's GET /api/v1/alerts takes, through the same grammar.
 */
import type { Principal } from '@/lib/access';
import { ALERT_KINDS, type AlertKind, alertsQuery, listAlerts, readableKinds } from '@/lib/alerts';
import { firstOf, readOwnView, type SearchParams } from './url';

export { ALERT_KIND_LABELS } from './event-labels';

/** Rows per page unless the visitor picks another of the list's sizes (the Pagination's own). */
const PAGE_SIZES = [20, 50, 100];

export interface AlertsView {
  /** Open alerts only (the default), or every alert. */
  show: 'open' | 'all';
  kind: AlertKind | null;
  page: number;
  pageSize: number;
}

/** The view from the URL; what cannot be read (an unknown kind, a bad page) is left out, not an error page. */
function readAlertsView(searchParams: SearchParams): AlertsView {
  const kind = firstOf(searchParams.kind);
  const page = Number(firstOf(searchParams.page));
  const pageSize = Number(firstOf(searchParams.pageSize));
  return {
    show: firstOf(searchParams.show) === 'all' ? 'all' : 'open',
    kind: ALERT_KINDS.includes(kind as AlertKind) ? (kind as AlertKind) : null,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: PAGE_SIZES.includes(pageSize) ? pageSize : PAGE_SIZES[0],
  };
}

/** The page's data: its alerts and the kinds the principal's role reads (for the picker). */
export async function loadAlerts(principal: Principal, params: SearchParams) {
  const view = readAlertsView(params);
  const terms = [view.show === 'open' && 'state==open', view.kind && `kind==${view.kind}`].filter(Boolean);
  const input = readOwnView(alertsQuery, {
    page: String(view.page),
    pageSize: String(view.pageSize),
    ...(terms.length > 0 ? { Filter: terms.join(';') } : {}),
  });
  return { view, page: await listAlerts(principal, input), kinds: readableKinds(principal) };
}
