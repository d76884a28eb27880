/** What client components may load of the accounts domain: the roles and their words, no database behind them. */
export { type Ability, grants, MEMBER_ROLES, ROLE_LABELS } from './roles';
export type { MemberRole } from './principal';
