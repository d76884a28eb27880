/** The sites' shapes as the API answers them, under their OpenAPI component ids; their types are inferred. */
import { z } from '@/lib/shared/zod';
import { timestamp, uuid } from '@/lib/shared/response-fields';
import { pagedSchema } from '@/lib/query/paging';

/** A site as the spec answers it. */
export const SiteResponse = z
  .object({
    siteId: uuid,
    name: z.string().nullable(),
    url: z.string().nullable(),
    framework: z.string().nullable(),
    status: z.enum(['live', 'approved', 'pending']).nullable(),
    dailyActiveUsers: z.int().nullable(),
    monthlyActiveUsers: z.int().nullable(),
    createdAt: timestamp,
  })
  .meta({ id: 'SiteResponse', description: 'A site (a game) of the account.' });
export type SiteResponse = z.infer<typeof SiteResponse>;

/**
 * A site as its review sees it: the spec's SiteResponse, plus whose it is and why it was sent back. The admin
 * API answers it; the dashboard's Sites and review pages read it too.
 */
export const ManagedSiteResponse = z
  .object({
    ...SiteResponse.shape,
    publisherId: uuid.meta({ description: 'The account that owns the site' }),
    statusReason: z
      .string()
      .nullable()
      .meta({ description: 'Why an admin sent the site back to pending, shown to the publisher; null otherwise' }),
  })
  .meta({ id: 'ManagedSiteResponse', description: 'A site with its review status and the reason, for admins.' });
export type ManagedSiteResponse = z.infer<typeof ManagedSiteResponse>;

export const PagedManagedSites = pagedSchema(ManagedSiteResponse, 'PagedManagedSiteResponse');
