import { DEMO_IDS } from '@/db/seed';
import { createApiKey, type CreateApiKeyInput } from '@/lib/keys/api-keys';
import type { MemberRole, Principal } from '@/lib/access/principal';
import type { SessionPerson } from '@/lib/identity/sessions';

/**
 * A dashboard-session principal of an account's first Owner (the person who shares the account's id, as the
 * seed and the factories make them), the way the web side calls services.
 */
export function sessionPrincipal(userId: string, role: Principal['role'] = 'publisher'): Principal {
  return { userId, role, personId: userId, memberRole: 'owner', siteScope: null, via: 'session' };
}

/** Creates a key through the real service and returns the raw key and its record. */
export async function issueKey(userId: string, input: CreateApiKeyInput = {}, role: Principal['role'] = 'publisher') {
  const created = await createApiKey(sessionPrincipal(userId, role), { label: 'test', ...input });
  return { raw: created.apiKey, record: created.key };
}

export const demoKey = (input?: CreateApiKeyInput) => issueKey(DEMO_IDS.users.demo, input);
export const rivalKey = (input?: CreateApiKeyInput) => issueKey(DEMO_IDS.users.rival, input);
export const adminKey = (input?: CreateApiKeyInput) => issueKey(DEMO_IDS.users.admin, input, 'admin');

/** The raw key with its last character changed: same shape, another key (a fixed letter could be the same). */
export const otherLastChar = (raw: string) => `${raw.slice(0, -1)}${raw.endsWith('0') ? '1' : '0'}`;

/** The signed-in Owner of an account as the dashboard sees them (see sessionPrincipal). */
export function sessionPersonOf(
  userId: string,
  { name, email, role = 'publisher' }: { name: string; email: string; role?: Principal['role'] },
): SessionPerson {
  const membership = {
    accountId: userId,
    accountName: name,
    accountRole: role,
    role: 'owner' as const,
    siteIds: null,
    requiresTwoFactor: false,
  };
  return {
    principal: sessionPrincipal(userId, role),
    personId: userId,
    name,
    email,
    twoFactor: false,
    memberships: [membership],
  };
}

/** A member's session principal in an account, with their role (and a Viewer's sites). */
export function memberPrincipal(
  accountId: string,
  personId: string,
  memberRole: MemberRole,
  siteScope: string[] | null = null,
): Principal {
  return { userId: accountId, role: 'publisher', personId, memberRole, siteScope, via: 'session' };
}
