/** Publisher accounts, for operators: create (invited), list, deactivate, reactivate, send the invitation again. */
import {
  createPublisher,
  createPublisherInput,
  deactivatePublisher,
  INVITATION_LIMIT,
  listPublisherAccounts,
  PagedPublishers,
  PublisherResponse,
  publishersQuery,
  reactivatePublisher,
  resendInvitation,
} from '@/lib/accounts';
import { endpoint, idParam, PAGED_TYPES, type ApiEndpoint } from '../endpoint';

const PUBLISHER_COLUMNS = ['id', 'name', 'email', 'status', 'sites', 'lastSignInAt', 'createdAt'] as const;
const idOfPublisher = idParam('id', "The publisher's account id");
const OPERATOR_ONLY = "An account-level key of the operator's account is needed; a publisher's key gets 403.";

export const PUBLISHER_ENDPOINTS: ApiEndpoint[] = [
  endpoint({
    method: 'GET',
    path: '/api/v1/admin/publishers',
    operationId: 'listPublishers',
    tag: 'Publishers',
    access: 'operator',
    summary: 'Operators: the publisher accounts, paged, with status, number of sites and last sign-in',
    description: `Sorted by name unless sortBy says otherwise; Search matches name and e-mail; Filter and FilterList take the row's fields (e.g. \`status==invited\`). ${OPERATOR_ONLY}`,
    query: publishersQuery,
    response: {
      status: 200,
      description: 'One row per publisher account',
      schema: PagedPublishers,
      mediaTypes: PAGED_TYPES,
    },
    errors: [400, 403, 406],
    run: { csvColumns: PUBLISHER_COLUMNS, handler: ({ principal, input }) => listPublisherAccounts(principal, input) },
  }),
  endpoint({
    method: 'POST',
    path: '/api/v1/admin/publishers',
    operationId: 'createPublisher',
    tag: 'Publishers',
    access: 'operator',
    summary: 'Operators: create a publisher account and e-mail it an invitation',
    description: `The account starts \`invited\`, without a password; the invitation link (single use, 72 hours) goes only to the account's e-mail address, never into this answer. An e-mail already in use, in any letter case, is a 409. Answers 200 with the account, like every operation of this API. ${OPERATOR_ONLY}`,
    body: createPublisherInput,
    response: { status: 200, description: 'The new account, invited', schema: PublisherResponse },
    errors: [400, 403, 409, 415],
    run: {
      handler: async ({ principal, readBody }) =>
        (await createPublisher(principal, await readBody(createPublisherInput))).publisher,
    },
  }),
  endpoint({
    method: 'POST',
    path: '/api/v1/admin/publishers/{id}/deactivate',
    operationId: 'deactivatePublisher',
    tag: 'Publishers',
    access: 'operator',
    summary: 'Operators: shut a publisher account out: its sessions end and its API keys are revoked',
    description: `At once: every session ends and every key of the account is revoked (it answers 401). Sites and revenue stay. A deactivated account is a 409. ${OPERATOR_ONLY}`,
    pathParams: idOfPublisher,
    response: { status: 200, description: 'The account, deactivated', schema: PublisherResponse },
    errors: [403, 404, 409],
    run: { handler: ({ principal, params: p }) => deactivatePublisher(principal, p.id) },
  }),
  endpoint({
    method: 'POST',
    path: '/api/v1/admin/publishers/{id}/reactivate',
    operationId: 'reactivatePublisher',
    tag: 'Publishers',
    access: 'operator',
    summary: 'Operators: let a deactivated publisher account sign in again',
    description: `The account becomes \`active\`, or \`invited\` if it never set a password. Keys revoked and sessions ended at deactivation stay so. An account that is not deactivated is a 409. ${OPERATOR_ONLY}`,
    pathParams: idOfPublisher,
    response: { status: 200, description: 'The account, reactivated', schema: PublisherResponse },
    errors: [403, 404, 409],
    run: { handler: ({ principal, params: p }) => reactivatePublisher(principal, p.id) },
  }),
  endpoint({
    method: 'POST',
    path: '/api/v1/admin/publishers/{id}/invitation',
    operationId: 'resendInvitation',
    tag: 'Publishers',
    access: 'operator',
    summary: 'Operators: e-mail an invited publisher a new invitation link; the earlier link stops working',
    description: `Only for an \`invited\` account: an active or deactivated one is a 409 naming its status. The link goes only to the account's e-mail address. ${INVITATION_LIMIT.perAccount} invitations an hour per account: past that, 429 with \`Retry-After\`. ${OPERATOR_ONLY}`,
    pathParams: idOfPublisher,
    response: { status: 200, description: 'The account; the new link was e-mailed', schema: PublisherResponse },
    errors: [403, 404, 409],
    run: { handler: async ({ principal, params: p }) => (await resendInvitation(principal, p.id)).publisher },
  }),
];
