import { and, asc, count, desc, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { AnyPgColumn, PgDatabase, PgQueryResultHKT, PgTable } from 'drizzle-orm/pg-core';
import { filterToSql, searchToSql } from './filter-sql';
import type { PagedRowsInput } from './input';
import { pageMeta, pageOffset, type Paged } from './paging';

/** A time as the grammar compares dates: its UTC day (`createdAt==2026-11-24`). */
export const utcDay = (column: SQLWrapper) => sql`((${column} at time zone 'UTC')::date)`;

/** A table read as pages by the query grammar: its fields' columns, which it searches, what orders it by default. */
export interface PagedTable<T extends PgTable, Field extends string> {
  table: T;
  /** Who may see which rows: the service's scope, always applied. */
  scope: SQL | undefined;
  /** Each field's expression for Filter and FilterList (a time as its UTC day, say). */
  filterColumns: Record<Field, SQLWrapper>;
  /** Each field's expression for sortBy (a time as itself); the filter's where not given. */
  sortColumns?: Partial<Record<Field, SQLWrapper>>;
  /** What Search matches, case-insensitively. */
  searchColumns: SQLWrapper[];
  /** Without sortBy: this field, newest (largest) first. */
  newestFirst: Field;
  /** Breaks ties in the sort's direction, so that pages never overlap: the table's id. */
  id: AnyPgColumn;
}

/**
 * One page of a table's rows as the grammar asks for it (Filter, FilterList, Search, sortBy, page, pageSize),
 * with the total for the page's meta; without sortBy, newest first. Every list of the API reads through it.
 */
export async function selectPage<T extends PgTable, Field extends string, R>(
  db: PgDatabase<PgQueryResultHKT, Record<string, unknown>>,
  spec: PagedTable<T, Field>,
  input: PagedRowsInput,
  toResponse: (row: T['$inferSelect']) => R,
): Promise<Paged<R>> {
  const where = and(
    spec.scope,
    filterToSql(input.filter, spec.filterColumns),
    input.search ? searchToSql(input.search, spec.searchColumns) : undefined,
  );
  const sortBy = (input.sortBy ?? spec.newestFirst) as Field;
  const direction = input.sortBy ? (input.sortDirection === 'desc' ? desc : asc) : desc;
  const sortColumn = spec.sortColumns?.[sortBy] ?? spec.filterColumns[sortBy];
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(spec.table as PgTable)
      .where(where)
      .orderBy(direction(sortColumn), direction(spec.id))
      .limit(input.pageSize)
      .offset(pageOffset(input)),
    db
      .select({ total: count() })
      .from(spec.table as PgTable)
      .where(where),
  ]);
  const paging = { ...input, sortBy, sortDirection: input.sortBy ? input.sortDirection : ('desc' as const) };
  return { data: (rows as T['$inferSelect'][]).map(toResponse), meta: pageMeta(paging, total) };
}
