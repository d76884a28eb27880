/**
 * Who may read statements. Closing months and recording payments is the operator's power 'pay'
 * (requireOperator, lib/access/roles.ts).
 */
import { requireAbility, requireAccountLevel, requirePublisherAccount, type Principal } from '@/lib/access';

/**
 * A publisher account's statements: with an account-level key (like the rows, they are account-wide), or for
 * members whose role reads them (Owner, Finance), or an admin viewing the account.
 */
export function requireStatementReader(principal: Principal): void {
  requirePublisherAccount(
    principal,
    'Statements are a publisher account’s; an admin reads them by viewing that account.',
  );
  requireAbility(principal, 'readStatements', 'Statements and payments');
  requireAccountLevel(principal, 'Statements and payments');
}
