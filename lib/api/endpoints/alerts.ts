/** Alerts: what the portal tells the account first, and acknowledging them. */
import { acknowledgeAlert, ALERT_COLUMNS, AlertResponse, alertsQuery, listAlerts, PagedAlerts } from '@/lib/alerts';
import { endpoint, idParam, PAGED_TYPES, type ApiEndpoint } from '../endpoint';

export const ALERT_ENDPOINTS: ApiEndpoint[] = [
  endpoint({
    method: 'GET',
    path: '/api/v1/alerts',
    operationId: 'listAlerts',
    tag: 'Alerts',
    access: 'key',
    summary: "The account's alerts: unusual revenue, data that stopped, statements, payments, reviews, expiring keys",
    description:
      'Newest first; paged, sortable and filterable like the reports (e.g. `FilterList[kind]=revenue.drop,revenue.spike`, ' +
      '`Filter=state==open;day>=2026-11-01`). A site-scoped key reads only the alerts about its sites. As text/csv the ' +
      'page, with details as JSON text. Revenue alerts are found after each import and hourly: a complete day outside ' +
      'the band of the same weekday of the 8 weeks before (README, "Alerts").',
    query: alertsQuery,
    response: { status: 200, description: 'A page of alerts', schema: PagedAlerts, mediaTypes: PAGED_TYPES },
    errors: [400, 403, 406],
    run: { csvColumns: ALERT_COLUMNS, handler: ({ principal, input }) => listAlerts(principal, input) },
  }),
  endpoint({
    method: 'POST',
    path: '/api/v1/alerts/{id}/acknowledge',
    operationId: 'acknowledgeAlert',
    tag: 'Alerts',
    access: 'key',
    summary: 'Acknowledge an alert: it stays, marked as seen',
    description:
      'Moves an open alert to `acknowledged` with the time; acknowledging it again is a 409 saying since when. ' +
      'An alert the key may not read (another account’s, another site’s for a site-scoped key) is a 404.',
    pathParams: idParam('id', "The alert's id"),
    response: { status: 200, description: 'The alert as it is now', schema: AlertResponse },
    errors: [403, 404, 409],
    run: { handler: ({ principal, params: p }) => acknowledgeAlert(principal, p.id) },
  }),
];
