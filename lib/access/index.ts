/** Access: who is asking (Principal), what their role grants, which sites they may read, the data version. */
export {
  actorKindOf,
  isOperatorAccount,
  isPublisherAccount,
  ownAccountOf,
  requirePublisherAccount,
} from './account-kind';
export { dataVersionForReads, readDataVersion } from './data-version';
export type { DataVersion } from './data-version';
export { COMMAND_LINE } from './principal';
export type { MemberRole, Principal } from './principal';
export { can, isOperator, MEMBER_ROLES, OPERATOR_POWERS, requireAbility, requireOperator, ROLE_LABELS } from './roles';
export type { OperatorPower } from './roles';
export { accountSitesColumns, forOneRequest, readableSites, requireAccountLevel, requireWritable } from './site-access';
