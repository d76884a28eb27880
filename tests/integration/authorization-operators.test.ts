import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '@/db/seed';
import {
  createPublisher as createPublisherAccount,
  deactivatePublisher,
  listPeople,
  peopleQuery,
  listPublisherAccounts,
  listPublishers,
  reactivatePublisher,
  resendInvitation,
  sendPasswordResetAsOperator,
  viewAsPublisher,
} from '@/lib/accounts';
import { createSite as createSiteFor, listManagedSites, listSitesForReview, updateSite } from '@/lib/sites';
import { principalOf, resetTwoFactorAsAdmin } from '@/lib/identity';
import type { Principal } from '@/lib/access';
import type { MemberRole } from '@/lib/access/principal';
import { listActivity } from '@/lib/activity';
import { createApiKeyForUser } from '@/lib/keys';
import { closeMonth, listPayouts, recordPayments } from '@/lib/payments';
import type { PagedRowsInput } from '@/lib/query';
import { importRevenue } from '@/lib/revenue-in';
import { AppError } from '@/lib/shared/errors';
import { useTestDatabase } from '../support/db';
import { addMember, createPublisher, createSite } from '../support/factories';
import { sessionPrincipal } from '../support/keys';

/**
 * Issue 39, point 2: operator powers are a grant of the member's role in the operator's account, not the
 * account's kind. The API answers API keys only (an admin key acts as the operator's account and holds every
 * power: authorization-api.test.ts), so the people are tried at the services every door calls: each operator
 * operation × the operator's account's Owner, Admin, Finance and Viewer, with the session principals
 * (principalOf) that sign-in builds. `operate` is for Owners and Admins, `pay` for Owners and Finance
 * (lib/access/roles.ts). The dashboard's side is e2e/dashboard-authorization.spec.ts.
 */
const t = useTestDatabase();

const ROLES = ['owner', 'admin', 'finance', 'viewer'] as const satisfies readonly MemberRole[];
type Role = (typeof ROLES)[number];
let callers: Record<Role, Principal>;
let publisherId: string;

beforeAll(async () => {
  const operatorAccount = DEMO_IDS.users.admin;
  const member = async (role: MemberRole) => {
    const person = await addMember(t.db, operatorAccount, { role });
    const membership = {
      accountId: operatorAccount,
      accountName: 'Operator',
      accountRole: 'admin' as const,
      role,
      siteIds: null,
      requiresTwoFactor: false,
    };
    return principalOf(person.id, membership, '203.0.113.9');
  };
  callers = {
    // The operator account's first Owner, the person who shares its id (as the seed makes it).
    owner: sessionPrincipal(operatorAccount, 'admin'),
    admin: await member('admin'),
    finance: await member('finance'),
    viewer: await member('viewer'),
  };
  publisherId = (await createPublisher(t.db)).id;
});

/** What an operation answered: 'ok', 'refused' by the operator check, or the error's code. */
type Outcome = 'ok' | 'refused' | AppError['code'];
const PAGE: PagedRowsInput = { page: 1, pageSize: 1, sortBy: null, sortDirection: 'asc', filter: [], search: null };
const thisMonth = () => new Date().toISOString().slice(0, 7);

interface Operation {
  name: string;
  power: 'operate' | 'pay';
  run(principal: Principal): Promise<unknown>;
  /** What a caller with the power gets (a check after the grant's, when the operation would change too much). */
  granted?: Outcome;
}

const OPERATIONS: Operation[] = [
  {
    name: 'list publisher accounts',
    power: 'operate',
    run: (p) => listPublisherAccounts(p, PAGE),
  },
  {
    name: 'create a publisher',
    power: 'operate',
    run: (p) => createPublisherAccount(p, { email: `ops-${randomUUID()}@test.example`, name: 'Ops matrix' }),
  },
  {
    name: 'deactivate a publisher',
    power: 'operate',
    run: async (p) => deactivatePublisher(p, (await createPublisher(t.db)).id),
  },
  {
    name: 'reactivate a publisher',
    power: 'operate',
    run: async (p) => reactivatePublisher(p, (await createPublisher(t.db, { status: 'deactivated' })).id),
  },
  {
    name: 'resend an invitation',
    power: 'operate',
    run: async (p) => resendInvitation(p, (await createPublisher(t.db, { status: 'invited' })).id),
  },
  {
    name: 'send a password reset link',
    power: 'operate',
    // Invited: past the grant, the account's state refuses it, and nobody is e-mailed.
    run: async (p) => sendPasswordResetAsOperator(p, (await createPublisher(t.db, { status: 'invited' })).id),
    granted: 'conflict',
  },
  {
    name: 'reset a person’s two-factor sign-in',
    power: 'operate',
    // Someone without two-factor sign-in: past the grant, nothing to reset.
    run: async (p) => resetTwoFactorAsAdmin(p, (await createPublisher(t.db)).id),
    granted: 'conflict',
  },
  {
    name: 'list the people of every account',
    power: 'operate',
    run: (p) => listPeople(p, peopleQuery.parse({ Search: 'example' })),
  },
  { name: 'list publishers (to choose one)', power: 'operate', run: (p) => listPublishers(p) },
  { name: 'view as a publisher', power: 'operate', run: (p) => viewAsPublisher(p, publisherId) },
  {
    name: 'create a key for a publisher',
    power: 'operate',
    run: (p) => createApiKeyForUser(p, publisherId, { label: 'ops matrix' }),
  },
  { name: 'read every account’s activity', power: 'operate', run: (p) => listActivity(p, PAGE) },
  { name: 'the site review queue', power: 'operate', run: (p) => listSitesForReview(p, PAGE) },
  { name: 'list every site', power: 'operate', run: (p) => listManagedSites(p, PAGE) },
  {
    name: 'create a site for a publisher',
    power: 'operate',
    run: (p) =>
      createSiteFor(p, {
        publisherId,
        name: 'ops matrix',
        url: 'https://ops-matrix.test.example',
        framework: 'phaser',
      }),
  },
  {
    name: 'review a site',
    power: 'operate',
    run: async (p) =>
      updateSite(p, (await createSite(t.db, publisherId, { status: 'pending' })).id, { status: 'approved' }),
  },
  {
    name: 'import revenue',
    power: 'operate',
    // One bad line: past the grant the file is refused whole (a result with its error), nothing is written.
    run: (p) =>
      importRevenue(p, ['day,siteId,country,impressions,clicks,adRequests,revenue\nnot-a-day,x,DE,1,0,1,0\n'], {
        format: 'csv',
      }),
  },
  { name: 'every account’s balance (payouts)', power: 'pay', run: (p) => listPayouts(p) },
  {
    name: 'close a month',
    power: 'pay',
    // This month is not over: past the grant, refused as invalid; no month is closed for the other files.
    run: (p) => closeMonth(p, { month: thisMonth() }),
    granted: 'invalid',
  },
  {
    name: 'record payments',
    power: 'pay',
    // No payments: past the grant, refused as invalid.
    run: (p) => recordPayments(p, []),
    granted: 'invalid',
  },
];

const HOLDERS = { operate: ['owner', 'admin'], pay: ['owner', 'finance'] } as const;

async function outcomeOf(operation: Operation, principal: Principal): Promise<Outcome> {
  try {
    await operation.run(principal);
    return 'ok';
  } catch (err) {
    // Refused by the operator check itself, which comes first: not by a check of the account's own.
    if (err instanceof AppError && err.code === 'forbidden' && err.detail.includes("in the operator's account")) {
      return 'refused';
    }
    if (err instanceof AppError) return err.code;
    throw err;
  }
}

describe('operator powers × the operator account’s members', () => {
  const matrix = async (operation: Operation) => {
    const answers: Partial<Record<Role, Outcome>> = {};
    for (const role of ROLES) answers[role] = await outcomeOf(operation, callers[role]);
    const expected = Object.fromEntries(
      ROLES.map((role) => [
        role,
        (HOLDERS[operation.power] as readonly Role[]).includes(role) ? (operation.granted ?? 'ok') : 'refused',
      ]),
    );
    expect(answers).toEqual(expected);
  };
  it.each(OPERATIONS.map((o) => [o.name, o] as const))('%s', (_, operation) => matrix(operation));

  it('says which roles hold the power, and which one the caller has', async () => {
    await expect(listPeople(callers.viewer, peopleQuery.parse({}))).rejects.toThrow(
      "Listing the people of every account needs the Owner or Admin role in the operator's account; you are Viewer.",
    );
    await expect(listPayouts(callers.admin)).rejects.toThrow(
      "Payouts needs the Owner or Finance role in the operator's account; you are Admin.",
    );
  });
});
