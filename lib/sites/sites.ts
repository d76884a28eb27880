import { and, eq, inArray } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { sites, type Site } from '@/db/schema';
import type { Principal } from '@/lib/access';
import type { SiteResponse } from './schemas';

/** Every site of the account, or only the key's allowed sites for a site-scoped key. */
export async function listSites(principal: Principal): Promise<SiteResponse[]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(sites)
    .where(
      and(eq(sites.userId, principal.userId), principal.siteScope ? inArray(sites.id, principal.siteScope) : undefined),
    )
    .orderBy(sites.createdAt, sites.id);
  return rows.map(toSiteResponse);
}

/** A site row as the spec's SiteResponse (the managed site adds its publisher and review reason to it). */
export const toSiteResponse = (s: Site): SiteResponse => ({
  siteId: s.id,
  name: s.name,
  url: s.url,
  framework: s.framework,
  status: s.status,
  dailyActiveUsers: s.dailyActiveUsers,
  monthlyActiveUsers: s.monthlyActiveUsers,
  createdAt: s.createdAt.toISOString(),
});
