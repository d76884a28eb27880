/** A site as the API answers it, under its OpenAPI component id; its type is inferred. */
import { z } from '@/lib/shared/zod';
import { timestamp, uuid } from '@/lib/shared/response-fields';

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
