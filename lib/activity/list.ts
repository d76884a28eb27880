import { eq, type SQLWrapper } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { auditEvents } from '@/db/schema';
import { isOperatorAccount, type Principal, requireAbility, requireAccountLevel, requireOperator } from '@/lib/access';
import { selectPage, utcDay, type Paged, type PagedRowsInput } from '@/lib/query';
import type { AuditEventField, AuditEventResponse } from './schemas';

const e = auditEvents;

/** Each field's column; `at` filters by its UTC day, as every date of the grammar does, and sorts exactly. */
const filterColumns: Record<AuditEventField, SQLWrapper> = {
  id: e.id,
  at: utcDay(e.at),
  kind: e.kind,
  actorKind: e.actorKind,
  actorId: e.actorId,
  actorLabel: e.actorLabel,
  accountId: e.accountId,
  subjectId: e.subjectId,
  clientAddress: e.clientAddress,
};

/**
 * Whose events a caller reads: the operator's account every account's (and events of no account), if the
 * member's role grants it; anyone else only its own account's, with an account-level credential (the log is
 * account-wide, like the rows).
 */
function scopeOf(principal: Principal) {
  // The operator's account has no log of its own (its events name no account): every account's, or nothing.
  if (isOperatorAccount(principal)) {
    requireOperator(principal, 'operate', 'Reading every account’s activity');
    return undefined;
  }
  // A member reads the account's log if their role grants it (roles.ts), as Settings → Activity shows it.
  requireAbility(principal, 'readActivity', 'Reading the activity log');
  requireAccountLevel(principal, 'Reading the activity log');
  return eq(e.accountId, principal.userId);
}

/**
 * A page of the activity log, newest first unless sorted otherwise; Filter, FilterList and Search as in the
 * reports. An admin narrows it to an account, an actor or a kind with the same grammar (`accountId==…`).
 */
export async function listActivity(principal: Principal, input: PagedRowsInput): Promise<Paged<AuditEventResponse>> {
  const db = await getDb();
  const table = {
    table: e,
    scope: scopeOf(principal),
    filterColumns,
    sortColumns: { at: e.at },
    searchColumns: [e.kind, e.actorLabel, e.clientAddress],
    newestFirst: 'at' as const,
    id: e.id,
  };
  // The table's columns are the response's fields; only the time needs its ISO text.
  return selectPage(db, table, input, (row) => ({ ...row, at: row.at.toISOString() }));
}
