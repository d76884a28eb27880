/**
 * The bodies that belong to the API itself rather than to a domain: the health check and RFC 9457 problems.
 * Each domain declares its own responses (lib/<domain>/schemas.ts); the OpenAPI document (lib/api/openapi.ts)
 * is generated from all of them, and the integration suite checks every response it receives against it.
 */
import { z } from 'zod';

export const Health = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });

export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.int(),
    detail: z.string(),
    instance: z.string(),
    requestId: z.string(),
    errors: z
      .array(z.object({ parameter: z.string(), line: z.int().optional(), detail: z.string() }))
      .optional()
      .meta({ description: 'Each invalid input, by name' }),
    errorCount: z.int().optional().meta({ description: 'How many errors there were, when only some are listed' }),
  })
  .meta({ id: 'Problem', description: 'RFC 9457 problem details.' });
