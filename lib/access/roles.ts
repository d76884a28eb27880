import { forbidden } from '@/lib/shared/errors';
import { isOperatorAccount } from './account-kind';
import type { MemberRole, Principal } from './principal';

/**
 * What each member role may do in its account, written once. Every role reads every report and download
 * (a Viewer possibly only some sites); the rest is granted here. API keys are the account's own and keep the
 * spec's behaviour: this table is about people.
 */
export const MEMBER_ROLES = ['owner', 'admin', 'finance', 'viewer'] as const satisfies readonly MemberRole[];

const GRANTS = {
  /** Create, rotate and revoke API keys. */
  manageKeys: ['owner', 'admin'],
  /** Add, edit and delete the account's sites. */
  manageSites: ['owner', 'admin'],
  /** Invite members and change or remove those who are not owners. */
  manageMembers: ['owner', 'admin'],
  /** Make, demote and remove owners; the account's own settings (two-factor for everyone). */
  manageOwners: ['owner'],
  /** The account's activity log (who signed in from where, what changed). */
  readActivity: ['owner', 'admin'],
  /** Add, test and remove the account's webhook endpoints, and read their deliveries. */
  manageWebhooks: ['owner', 'admin'],
  /** Earnings statements and payments: the money, for Owners and Finance (Admins run the product side). */
  readStatements: ['owner', 'finance'],
} as const satisfies Record<string, readonly MemberRole[]>;
export type Ability = keyof typeof GRANTS;

/** The role's words, for the pages and the refusals. */
export const ROLE_LABELS: Record<MemberRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  finance: 'Finance',
  viewer: 'Viewer',
};

/** Whether a member role grants the ability (for pages that show or hide what a role may do). */
export const grants = (role: MemberRole, ability: Ability) => (GRANTS[ability] as readonly MemberRole[]).includes(role);

/** Whether the principal may do it: a person by their role; an API key or the command line acts as the account. */
export const can = (principal: Principal, ability: Ability): boolean =>
  !principal.memberRole || grants(principal.memberRole, ability);

/** Refuses (403) a member whose role does not grant `ability`, naming the roles that do. */
export function requireAbility(principal: Pick<Principal, 'memberRole'>, ability: Ability, operation: string): void {
  const role = principal.memberRole;
  if (!role || grants(role, ability)) return;
  const roles = GRANTS[ability].map((r) => ROLE_LABELS[r]).join(' or ');
  throw forbidden(`${operation} needs the ${roles} role; you are ${ROLE_LABELS[role]}.`);
}

/**
 * Platform powers, held by members of the operator's account by their role there (README, "Operators"). An
 * admin API key and the command line act as the operator's account itself and hold them all.
 */
const OPERATOR_GRANTS = {
  /** Publishers, site review, people, every account's activity, "view as", keys and imports for any account. */
  operate: ['owner', 'admin'],
  /** Payouts: every account's balance, closing months, recording payments. */
  pay: ['owner', 'finance'],
} as const satisfies Record<string, readonly MemberRole[]>;
export type OperatorPower = keyof typeof OPERATOR_GRANTS;
export const OPERATOR_POWERS = Object.keys(OPERATOR_GRANTS) as OperatorPower[];

/** The platform powers a role of the operator's account holds (the invitation form says them). */
export const operatorPowersOf = (role: MemberRole): OperatorPower[] =>
  OPERATOR_POWERS.filter((power) => (OPERATOR_GRANTS[power] as readonly MemberRole[]).includes(role));

/** Each power's words, for the pages. */
export const OPERATOR_POWER_LABELS: Record<OperatorPower, string> = {
  operate: 'operates the platform (publishers, site review, people, every account’s activity, viewing as a publisher)',
  pay: 'pays publishers (payouts, closing months, recording payments)',
};

/** What the operator checks read of a principal. */
type Operating = Pick<Principal, 'role' | 'memberRole'> & { siteScope?: string[] | null };

/** Whether the principal holds the platform power: the operator's account, and a member whose role grants it. */
export const isOperator = (principal: Operating, power: OperatorPower = 'operate'): boolean =>
  isOperatorAccount(principal) &&
  (!principal.memberRole || (OPERATOR_GRANTS[power] as readonly MemberRole[]).includes(principal.memberRole));

/**
 * Refuses (403) anyone without the platform power, a site-scoped credential included: the first check of every
 * operator service. Operator principals never view as someone (that principal is the publisher's), so what
 * they may do they may also write.
 */
export function requireOperator(principal: Operating, power: OperatorPower, operation: string): void {
  if (isOperatorAccount(principal) && principal.memberRole && !isOperator(principal, power)) {
    const roles = OPERATOR_GRANTS[power].map((r) => ROLE_LABELS[r]).join(' or ');
    throw forbidden(
      `${operation} needs the ${roles} role in the operator's account; you are ${ROLE_LABELS[principal.memberRole]}.`,
    );
  }
  if (!isOperator(principal, power)) throw forbidden(`${operation} is for the platform's operators only.`);
  if (principal.siteScope) throw forbidden(`${operation} needs an account-level credential, not a site-scoped one.`);
}
