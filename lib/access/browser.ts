/**
 * What client components may load of access: the roles, their words and the operator powers, no database
 * behind them.
 */
export {
  type Ability,
  grants,
  isOperator,
  MEMBER_ROLES,
  OPERATOR_POWER_LABELS,
  type OperatorPower,
  operatorPowersOf,
  ROLE_LABELS,
} from './roles';
export type { MemberRole } from './principal';
