/** The key responses as the API answers them, under their OpenAPI component ids; their types are inferred. */
import { z } from '@/lib/shared/zod';
import { timestamp, uuid } from '@/lib/shared/response-fields';

export const ApiKeyResponse = z
  .object({
    id: uuid,
    label: z.string().nullable(),
    keyPrefix: z.string().nullable().meta({ description: 'The first characters of the key, to recognise it by' }),
    siteIds: z
      .array(uuid)
      .nullable()
      .meta({ description: 'The sites a site-scoped key may read; null for account-level keys' }),
    lastUsedAt: timestamp.nullable(),
    expiresAt: timestamp.nullable(),
    revokedAt: timestamp.nullable(),
    createdAt: timestamp,
    isActive: z.boolean().meta({ description: 'Neither revoked nor expired' }),
  })
  .meta({ id: 'ApiKeyResponse', description: 'A client API key, without its secret.' });
export type ApiKeyResponse = z.infer<typeof ApiKeyResponse>;

export const CreateApiKeyResponse = z
  .object({
    key: ApiKeyResponse,
    apiKey: z.string().meta({ description: 'The raw key: shown in this response only, never again' }),
  })
  .meta({ id: 'CreateApiKeyResponse' });
export type CreateApiKeyResponse = z.infer<typeof CreateApiKeyResponse>;

/** The dashboard's "Roll key" (not in the API): a new key, and the id of the one it replaces, still active. */
export const RotateApiKeyResponse = z.object({ ...CreateApiKeyResponse.shape, replaces: uuid });
export type RotateApiKeyResponse = z.infer<typeof RotateApiKeyResponse>;
