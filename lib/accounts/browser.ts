/**
 * What client components, and the activity log below this domain, may load of it: the roles, their words and
 * the operator powers, no database behind them.
 */
export {
  type Ability,
  grants,
  isOperator,
  MEMBER_ROLES,
  OPERATOR_POWER_LABELS,
  type OperatorPower,
  operatorPowersOf,
  requireAbility,
  requireOperator,
  ROLE_LABELS,
} from './roles';
export type { MemberRole } from './principal';
