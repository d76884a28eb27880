/**
 * Filter and Search to drizzle SQL. Values are always bound parameters. String matching is
 * case-insensitive and literal: `strpos` instead of LIKE, so `%` and `_` in user text mean themselves.
 * Written for PostgreSQL 15 (CI) and PGlite (PostgreSQL 18) alike.
 */
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { FilterExpr, FilterTerm } from './filter';

/** Operators that map one-to-one onto SQL comparison operators. */
const COMPARE = { '==': '=', '>': '>', '>=': '>=', '<': '<', '<=': '<=' } as const;

/** The bound value with the cast its field type needs, so PostgreSQL never has to guess a type. */
function bound(term: FilterTerm): SQL {
  switch (term.type) {
    case 'number':
      return sql`${String(term.value)}::numeric`;
    case 'date':
      return sql`${term.value}::date`;
    case 'uuid':
      return sql`${term.value}::uuid`;
    case 'string':
      return sql`lower(${term.value}::text)`;
  }
}

/**
 * One term. A NULL column never matches ==, =@ or an ordering, and always matches != and !@.
 * `==` and orderings stay plain comparisons (NULL → no row) so indexes on the column remain usable; this
 * is why the result must only be used as a WHERE/HAVING condition, never negated.
 */
function termToSql(term: FilterTerm, column: SQLWrapper): SQL {
  // Strings compare lower-cased; orderings use the "C" collation so the order is by code point
  // everywhere rather than by whatever locale the server happens to be installed with.
  const col = term.type === 'string' ? sql`lower((${column})::text)` : sql`(${column})`;
  const value = bound(term);
  switch (term.op) {
    case '!=':
      return sql`${col} is distinct from ${value}`;
    case '=@':
      return sql`strpos(${col}, ${value}) > 0`;
    case '!@':
      return sql`coalesce(strpos(${col}, ${value}) = 0, true)`;
    case '==':
      return sql`${col} = ${value}`;
    default: {
      const cmp = sql.raw(COMPARE[term.op]);
      return term.type === 'string' ? sql`${col} collate "C" ${cmp} ${value}` : sql`${col} ${cmp} ${value}`;
    }
  }
}

/**
 * Compiles (a OR b) AND c … against `columns` (canonical field name → column or expression). Every field
 * in the expression must have a column: a missing one is a programming error, not a client error.
 * Returns undefined for an empty expression so it can go straight into drizzle's `and(...)`.
 */
export function filterToSql(expr: FilterExpr, columns: Record<string, SQLWrapper>): SQL | undefined {
  const groups = expr
    .filter((group) => group.length > 0)
    .map((group) => {
      const columnOf = (term: FilterTerm) => {
        const column = columns[term.field];
        if (!column) throw new Error(`filterToSql: no column mapped for field "${term.field}"`);
        return column;
      };
      // A list of values for one field (FilterList) is one IN, which PostgreSQL looks up in a hash per row.
      if (group.length > 1 && group.every((t) => t.op === '==' && t.field === group[0].field)) {
        const column = columnOf(group[0]);
        const col = group[0].type === 'string' ? sql`lower((${column})::text)` : sql`(${column})`;
        return sql`(${col} in (${sql.join(group.map(bound), sql`, `)}))`;
      }
      const terms = group.map((term) => termToSql(term, columnOf(term)));
      return sql`(${sql.join(terms, sql` or `)})`;
    });
  return groups.length > 0 ? sql`(${sql.join(groups, sql` and `)})` : undefined;
}

/**
 * Case-insensitive literal substring match of `search` in any of `columns`, OR `extraMatch` (e.g.
 * `country in (codes whose English name matches)`, which the caller computes outside SQL).
 */
export function searchToSql(search: string, columns: readonly SQLWrapper[], extraMatch?: SQL): SQL {
  const needle = sql`lower(${search}::text)`;
  const matches = columns.map((c) => sql`strpos(lower((${c})::text), ${needle}) > 0`);
  if (extraMatch) matches.push(sql`(${extraMatch})`);
  return matches.length > 0 ? sql`(${sql.join(matches, sql` or `)})` : sql`false`;
}
