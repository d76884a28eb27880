/**
 * People as a platform admin sees them: everyone who signs in, with the accounts they belong to, their role
 * in each and whether two-factor sign-in is on (for resetting a lost second factor). Operators only.
 */
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { uuidArraySql } from '@/db/raw-query';
import { memberships, people, users } from '@/db/schema';
import { type MemberRole, type Principal, requireOperator } from '@/lib/access';
import {
  filterToSql,
  pagedRowsQueryOf,
  pageMeta,
  pageOffset,
  searchToSql,
  type FieldDef,
  type Paged,
  type PagedRowsInput,
} from '@/lib/query';

export interface PersonSummary {
  id: string;
  name: string;
  email: string;
  twoFactor: boolean;
  lastSignInAt: Date | null;
  accounts: { id: string; name: string; role: MemberRole }[];
}

/** The people list's fields as the query grammar sees them (sortBy; Search looks in the name and the e-mail). */
const PERSON_FIELDS: readonly FieldDef[] = [
  { name: 'email', type: 'string' },
  { name: 'name', type: 'string' },
  { name: 'lastSignInAt', type: 'date' },
];
const PERSON_COLUMNS = { email: people.email, name: people.name, lastSignInAt: people.lastSignInAt };

/** The People page's parameters: page, pageSize, sortBy, sortDirection, Search. */
export const peopleQuery = pagedRowsQueryOf(PERSON_FIELDS, 'Case-insensitive text: matches the name or the e-mail.', {
  filter: 'lastSignInAt>=2026-11-01',
  filterList: { email: 'ada@example.com,grace@example.com' },
});

/** People, by e-mail unless sorted otherwise, a page of them: those whose name or e-mail contains Search. */
export async function listPeople(principal: Principal, input: PagedRowsInput): Promise<Paged<PersonSummary>> {
  requireOperator(principal, 'operate', 'Listing the people of every account');
  const where = and(
    filterToSql(input.filter, PERSON_COLUMNS),
    input.search ? searchToSql(input.search, [people.email, people.name]) : undefined,
  );
  const direction = input.sortDirection === 'desc' ? desc : asc;
  const order = input.sortBy
    ? direction(PERSON_COLUMNS[input.sortBy as keyof typeof PERSON_COLUMNS])
    : asc(people.email);
  const db = await getDb();
  const [[{ total }], rows] = await Promise.all([
    db.select({ total: count() }).from(people).where(where),
    db
      .select({
        id: people.id,
        name: people.name,
        email: people.email,
        twoFactor: sql<boolean>`${people.totpEnabledAt} is not null`,
        lastSignInAt: people.lastSignInAt,
      })
      .from(people)
      .where(where)
      .orderBy(order, asc(people.id))
      .limit(input.pageSize)
      .offset(pageOffset(input)),
  ]);
  const ids = rows.map((r) => r.id);
  const joined = ids.length
    ? await db
        .select({ personId: memberships.personId, id: users.id, name: users.name, role: memberships.role })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.accountId))
        .where(sql`${memberships.personId} = any(${uuidArraySql(ids)})`)
        .orderBy(asc(users.name))
    : [];
  return {
    data: rows.map((row) => ({
      ...row,
      accounts: joined.filter((j) => j.personId === row.id).map(({ id, name, role }) => ({ id, name, role })),
    })),
    meta: pageMeta(input, total),
  };
}
