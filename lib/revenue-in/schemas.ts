/** What an import did, as the admin endpoint answers it, under its OpenAPI component id; its type is inferred. */
import { z } from '@/lib/shared/zod';
import { count } from '@/lib/shared/response-fields';

export const ImportSummary = z
  .object({
    rows: count('Rows in the body'),
    inserted: count('New rows'),
    updated: count('Rows whose numbers changed'),
    unchanged: count('Rows already as sent'),
    sitesCreated: count('Sites created (never over HTTP)'),
    ms: count('Time taken'),
    rowsPerSecond: count('Rows per second'),
  })
  .meta({ id: 'ImportSummary' });
export type ImportSummary = z.infer<typeof ImportSummary>;
