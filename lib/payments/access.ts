/** Who may read statements and who may close months and record payments. */
import { requireAbility, requireAccountLevel, requireWritable, type Principal } from '@/lib/accounts';
import { forbidden } from '@/lib/shared/errors';

/**
 * A publisher account's statements: with an account-level key (like the rows, they are account-wide), or for
 * members whose role reads them (Owner, Finance), or an admin viewing the account.
 */
export function requireStatementReader(principal: Principal): void {
  if (principal.role !== 'publisher') {
    throw forbidden('Statements are a publisher account’s; an admin reads them by viewing that account.');
  }
  requireAbility(principal, 'readStatements', 'Statements and payments');
  requireAccountLevel(principal, 'Statements and payments');
}

/** The month-end close and payments: the operator (an admin, or the command line), never while viewing as. */
export function requireOperator(principal: Principal, operation: string): void {
  if (principal.role !== 'admin') throw forbidden(`${operation} is for admins only.`);
  requireAccountLevel(principal, operation);
  requireWritable(principal);
}
