/** The activity log: the account's events for its keys, every account's for the operator's. */
import { ACTIVITY_COLUMNS, activityQuery, listActivity, PagedActivity } from '@/lib/activity';
import { endpoint, PAGED_TYPES, type ApiEndpoint } from '../endpoint';

export const ACTIVITY_ENDPOINTS: ApiEndpoint[] = [
  endpoint({
    method: 'GET',
    path: '/api/v1/audit-events',
    operationId: 'listAuditEvents',
    tag: 'Activity',
    access: 'key',
    summary: "The activity log: who did what, when and from where (account-level keys: the account's; operators: all)",
    description:
      'Sign-ins, password changes, invitations, site reviews, keys and imports, newest first; paged, sortable and filterable like the reports (e.g. `Filter=kind==key.created`, and for operators `accountId==…`). As text/csv the page, with details as JSON text. Append-only: events are never changed or removed.',
    query: activityQuery,
    response: { status: 200, description: 'A page of events', schema: PagedActivity, mediaTypes: PAGED_TYPES },
    errors: [400, 403, 406],
    run: { csvColumns: ACTIVITY_COLUMNS, handler: ({ principal, input }) => listActivity(principal, input) },
  }),
];
