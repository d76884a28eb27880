import { eq } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { users } from '@/db/schema';
import { forbidden } from '@/lib/errors';
import type { Principal } from './principal';

export interface UserSummary {
  id: string;
  email: string;
  name: string;
  role: 'publisher' | 'admin';
}

/** Emails are stored lower-cased, so lookups are case-insensitive. */
export async function findUserByEmail(email: string): Promise<UserSummary | null> {
  const db = await getDb();
  const [user] = await db
    .select({ id: users.id, email: users.email, name: users.name, role: users.role })
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()))
    .limit(1);
  return user ?? null;
}

/** Publisher accounts, for an admin choosing whom to create a key for. */
export async function listPublishers(principal: Principal): Promise<UserSummary[]> {
  if (principal.role !== 'admin') throw forbidden('Only admins can list publisher accounts.');
  const db = await getDb();
  return db
    .select({ id: users.id, email: users.email, name: users.name, role: users.role })
    .from(users)
    .where(eq(users.role, 'publisher'))
    .orderBy(users.name, users.id);
}
