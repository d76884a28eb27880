import { eq } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { apiKeys, users } from '@/db/schema';
import { actorOf, type Actor } from '@/lib/audit';
import type { Principal } from './principal';

/**
 * The activity log's actor for a principal, with the label that says who it was as of now: the key's prefix
 * for an API key, the e-mail of the person at the dashboard (the admin's, when an admin views as a publisher).
 */
export async function actorFor(tx: Tx, principal: Principal): Promise<Actor> {
  if (principal.via === 'apiKey' && principal.keyId) {
    const [key] = await tx.select({ prefix: apiKeys.keyPrefix }).from(apiKeys).where(eq(apiKeys.id, principal.keyId));
    return actorOf(principal, key?.prefix ?? null);
  }
  if (principal.via === 'session') {
    const personId = principal.viewedBy ?? principal.userId;
    const [person] = await tx.select({ email: users.email }).from(users).where(eq(users.id, personId));
    return actorOf(principal, person?.email ?? null);
  }
  return actorOf(principal);
}
