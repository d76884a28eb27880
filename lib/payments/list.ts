/**
 * The statements as a page, with the reports' one query grammar (sortBy, Filter, FilterList, Search): the
 * statements are computed (estimates are never stored), so the grammar's SQL runs over them as a VALUES list.
 */
import { and, asc, desc, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { queryRows } from '@/db/raw-query';
import type { Principal } from '@/lib/access';
import { filterToSql, pageMeta, pageOffset, searchToSql, type Paged, type PagedRowsInput } from '@/lib/query';
import { accountLedger, summaryOf, type AccountStatement } from './statements';
import { monthName } from './months';
import type { StatementField, StatementSummary } from './schemas';

const micros = (column: string) => sql`(${sql.identifier('s')}.${sql.identifier(column)} / 1000000.0)`;
const text = (column: string) => sql`${sql.identifier('s')}.${sql.identifier(column)}`;

/** Each field as an expression over the VALUES list `s`. */
const COLUMNS: Record<StatementField, SQLWrapper> = {
  month: text('month'),
  status: text('status'),
  openingBalance: micros('opening'),
  earnings: micros('earnings'),
  adjustments: micros('adjustments'),
  // Computed once, by closingOf (lib/payments/ledger.ts), and handed in with the other figures.
  closingBalance: micros('closing'),
  amountDue: micros('due'),
  carriedOver: micros('carried'),
  threshold: micros('threshold'),
  expectedPaymentDate: sql`${text('due_on')}::date`,
  finalizedAt: sql`(${text('finalized_at')}::timestamptz at time zone 'UTC')::date`,
  paidAt: sql`${text('paid_on')}::date`,
  paymentReference: text('reference'),
};

function valuesOf(statements: AccountStatement[]): SQL {
  const rows = statements.map(
    (s) =>
      sql`(${monthName(s.month)}::text, ${s.status}::text, ${s.openingMicros}::bigint, ${s.earningsMicros}::bigint, ${s.adjustmentsMicros}::bigint, ${s.closingMicros}::bigint, ${s.amountDueMicros}::bigint, ${s.carriedMicros}::bigint, ${s.thresholdMicros}::bigint, ${s.dueOn}::text, ${s.finalizedAt?.toISOString() ?? null}::text, ${s.paidOn}::text, ${s.paymentReference}::text)`,
  );
  return sql`(values ${sql.join(rows, sql`, `)}) as s(month, status, opening, earnings, adjustments, closing, due, carried, threshold, due_on, finalized_at, paid_on, reference)`;
}

/** A page of the account's statements, newest month first unless sorted otherwise. */
export async function listStatements(principal: Principal, input: PagedRowsInput): Promise<Paged<StatementSummary>> {
  const view = await accountLedger(principal);
  const sortBy = (input.sortBy ?? 'month') as StatementField;
  const sortDirection = input.sortBy ? input.sortDirection : ('desc' as const);
  const paging = { ...input, sortBy, sortDirection };
  if (view.statements.length === 0) return { data: [], meta: pageMeta(paging, 0) };
  const where = and(
    filterToSql(input.filter, COLUMNS),
    input.search ? searchToSql(input.search, [COLUMNS.month, COLUMNS.status, COLUMNS.paymentReference]) : undefined,
  );
  const direction = sortDirection === 'desc' ? desc : asc;
  const db = await getDb();
  const rows = await queryRows<{ month: string; total: number }>(
    db,
    sql`select s.month, count(*) over ()::int as total from ${valuesOf(view.statements)}
        ${where ? sql`where ${where}` : sql``}
        order by ${direction(COLUMNS[sortBy])}, ${direction(COLUMNS.month)}
        limit ${input.pageSize} offset ${pageOffset(input)}`,
  );
  const byMonth = new Map(view.statements.map((s) => [monthName(s.month), s]));
  const total = rows[0]?.total ?? (pageOffset(input) > 0 ? await countOf(view.statements, where) : 0);
  return { data: rows.map((r) => summaryOf(byMonth.get(r.month)!)), meta: pageMeta(paging, total) };
}

/** The number of matches, for a page past the last (which has no row to carry the count). */
async function countOf(statements: AccountStatement[], where: SQL | undefined): Promise<number> {
  const db = await getDb();
  const rows = await queryRows<{ total: number }>(
    db,
    sql`select count(*)::int as total from ${valuesOf(statements)} ${where ? sql`where ${where}` : sql``}`,
  );
  return rows[0].total;
}
