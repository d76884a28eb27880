/** A publisher account as the API answers it, and the request that creates one; types are inferred. */
import { z } from '@/lib/shared/zod';
import { timestamp, uuid } from '@/lib/shared/response-fields';
import { pagedSchema } from '@/lib/query/paging';

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
