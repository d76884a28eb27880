/**
 * People as a platform admin sees them: everyone who signs in, with the accounts they belong to, their role
 * in each and whether two-factor sign-in is on (for resetting a lost second factor). Operators only.
 */
import { asc, count, eq, ilike, or, sql } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { memberships, people, users } from '@/db/schema';
import { type MemberRole, type Principal, requireOperator } from '@/lib/access';

export interface PersonSummary {
  id: string;
  name: string;
  email: string;
  twoFactor: boolean;
  lastSignInAt: Date | null;
  accounts: { id: string; name: string; role: MemberRole }[];
}

const PEOPLE_PAGE_SIZE = 50;

/** People, by e-mail, optionally those whose name or e-mail contains `search`; a page of PEOPLE_PAGE_SIZE. */
export async function listPeople(
  principal: Principal,
  { search = '', page = 1 }: { search?: string; page?: number } = {},
): Promise<{ people: PersonSummary[]; total: number }> {
  requireOperator(principal, 'operate', 'Listing the people of every account');
  const text = search.trim();
  // ILIKE with the text's wildcards escaped: a search for "a_b" finds "a_b", not "axb".
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const where = text ? or(ilike(people.email, pattern), ilike(people.name, pattern)) : undefined;
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
      .orderBy(asc(people.email))
      .limit(PEOPLE_PAGE_SIZE)
      .offset((Math.max(1, page) - 1) * PEOPLE_PAGE_SIZE),
  ]);
  const ids = rows.map((r) => r.id);
  const joined = ids.length
    ? await db
        .select({ personId: memberships.personId, id: users.id, name: users.name, role: memberships.role })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.accountId))
        .where(sql`${memberships.personId} = any(${`{${ids.join(',')}}`}::uuid[])`)
        .orderBy(asc(users.name))
    : [];
  return {
    total,
    people: rows.map((row) => ({
      ...row,
      accounts: joined.filter((j) => j.personId === row.id).map(({ id, name, role }) => ({ id, name, role })),
    })),
  };
}
