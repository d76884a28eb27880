/** Site review: operators add sites for publishers and move them through review (pending, approved, live). */
import {
  createSite,
  createSiteInput,
  listManagedSites,
  ManagedSiteResponse,
  PagedManagedSites,
  SITE_CSV_COLUMNS,
  siteListQuery,
  updateSite,
  updateSiteInput,
} from '@/lib/sites';
import { endpoint, idParam, PAGED_TYPES, type ApiEndpoint } from '../endpoint';

export const SITE_REVIEW_ENDPOINTS: ApiEndpoint[] = [
  endpoint({
    method: 'GET',
    path: '/api/v1/admin/sites',
    operationId: 'listAllSites',
    tag: 'Site review',
    access: 'operator',
    summary: "Operators: every publisher's sites, the review queue first",
    description:
      'Pending sites first, oldest first, then approved and live ones, unless `sortBy` says otherwise. ' +
      '`FilterList[status]=pending` is the review queue; `Search` looks in names and URLs.',
    query: siteListQuery,
    response: {
      status: 200,
      description: 'A page of sites',
      schema: PagedManagedSites,
      mediaTypes: PAGED_TYPES,
    },
    errors: [400, 403, 406],
    run: { csvColumns: SITE_CSV_COLUMNS, handler: ({ principal, input }) => listManagedSites(principal, input) },
  }),
  endpoint({
    method: 'POST',
    path: '/api/v1/admin/sites',
    operationId: 'createSite',
    tag: 'Site review',
    access: 'operator',
    summary: "Operators: add a site to a publisher's account",
    description:
      'The site starts `pending` unless `status` says otherwise (a game already running may start `live`). ' +
      "A key of the operator's account is needed; an unknown publisher is a 400 naming `publisherId`.",
    body: createSiteInput,
    response: { status: 200, description: 'The new site', schema: ManagedSiteResponse },
    errors: [400, 403, 415],
    run: { handler: async ({ principal, readBody }) => createSite(principal, await readBody(createSiteInput)) },
  }),
  endpoint({
    method: 'PATCH',
    path: '/api/v1/admin/sites/{id}',
    operationId: 'updateSite',
    tag: 'Site review',
    access: 'operator',
    summary: 'Operators: review a site (change its status) or edit its name, URL or framework',
    description:
      'Statuses move `pending → approved → live` and `live → approved`; any status goes back to `pending` with a ' +
      '`statusReason` the publisher sees, which the next move clears. Any other move is a 409 naming the moves ' +
      'open from the current status; setting the status a site already has changes nothing. Every change is ' +
      "recorded in the activity log, the site's history.",
    pathParams: idParam('id', "The site's id"),
    body: updateSiteInput,
    response: { status: 200, description: 'The site as it is now', schema: ManagedSiteResponse },
    errors: [400, 403, 404, 409, 415],
    run: {
      handler: async ({ principal, params: p, readBody }) =>
        updateSite(principal, p.id, await readBody(updateSiteInput)),
    },
  }),
];
