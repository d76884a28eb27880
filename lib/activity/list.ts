import { and, asc, count, desc, eq, sql, type SQLWrapper } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { auditEvents } from '@/db/schema';
import { isOperatorAccount, type Principal, requireAbility, requireAccountLevel, requireOperator } from '@/lib/access';
import { filterToSql, pageMeta, pageOffset, searchToSql, type Paged, type PagedRowsInput } from '@/lib/query';
import type { AuditEventField, AuditEventResponse } from './schemas';

const e = auditEvents;

/** Each field's column; `at` filters by its UTC day, as every date of the grammar does, and sorts exactly. */
const filterColumns: Record<AuditEventField, SQLWrapper> = {
  id: e.id,
  at: sql`((${e.at} at time zone 'UTC')::date)`,
  kind: e.kind,
  actorKind: e.actorKind,
  actorId: e.actorId,
  actorLabel: e.actorLabel,
  accountId: e.accountId,
  subjectId: e.subjectId,
  clientAddress: e.clientAddress,
};
const sortColumns: Record<AuditEventField, SQLWrapper> = { ...filterColumns, at: e.at };

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
  const where = and(
    scopeOf(principal),
    filterToSql(input.filter, filterColumns),
    input.search ? searchToSql(input.search, [e.kind, e.actorLabel, e.clientAddress]) : undefined,
  );
  const sortBy = (input.sortBy ?? 'at') as AuditEventField;
  // Without sortBy the log reads newest first; ids break ties in the same direction, so pages never overlap.
  const direction = input.sortBy ? (input.sortDirection === 'desc' ? desc : asc) : desc;
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(e)
      .where(where)
      .orderBy(direction(sortColumns[sortBy]), direction(e.id))
      .limit(input.pageSize)
      .offset(pageOffset(input)),
    db.select({ total: count() }).from(e).where(where),
  ]);
  const paging = { ...input, sortBy, sortDirection: input.sortBy ? input.sortDirection : ('desc' as const) };
  return {
    // The table's columns are the response's fields; only the time needs its ISO text.
    data: rows.map((row) => ({ ...row, at: row.at.toISOString() })),
    meta: pageMeta(paging, total),
  };
}
