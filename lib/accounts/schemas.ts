/** A site as the API answers it, under its OpenAPI component id; its type is inferred. */
import { z } from '@/lib/shared/zod';
import { timestamp, uuid } from '@/lib/shared/response-fields';
import { pagedSchema } from '@/lib/query/paging';

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

/** A publisher account as an admin sees it: never a password or anything derived from one. */
export const PublisherResponse = z
  .object({
    id: uuid,
    name: z.string(),
    email: z.string(),
    status: z.enum(['invited', 'active', 'deactivated']).meta({
      description: 'invited: no password set yet; active: signs in; deactivated: shut out, its data kept',
    }),
    sites: z.int().min(0).meta({ description: 'How many sites the account has, whatever their status' }),
    lastSignInAt: timestamp.nullable().meta({ description: 'The last successful sign-in; null when never' }),
    createdAt: timestamp,
  })
  .meta({ id: 'PublisherResponse', description: 'A publisher account, as admins manage it.' });
export type PublisherResponse = z.infer<typeof PublisherResponse>;

export const PagedPublishers = pagedSchema(PublisherResponse, 'PagedPublisherResponse');

/** The create-publisher request body; shared by the API and the Publishers page's server action. */
export const createPublisherInput = z
  .strictObject({
    email: z
      .string()
      .trim()
      .max(320, 'must be at most 320 characters')
      .pipe(z.email('must be an e-mail address, e.g. ada@example.com')),
    name: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(100, 'must be at most 100 characters')
      .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'must not contain control characters'),
  })
  .meta({ id: 'CreatePublisherRequest' });
export type CreatePublisherInput = z.infer<typeof createPublisherInput>;

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
