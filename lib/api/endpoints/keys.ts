/** Key management: list, create and revoke the account's keys, and an operator's key for a publisher. */
import {
  ApiKeyResponse,
  createApiKey,
  createApiKeyForUser,
  createApiKeyInput,
  CreateApiKeyResponse,
  listApiKeys,
  revokeApiKey,
} from '@/lib/keys';
import { z } from 'zod';
import { endpoint, idParam, type ApiEndpoint } from '../endpoint';

export const KEY_ENDPOINTS: ApiEndpoint[] = [
  endpoint({
    method: 'GET',
    path: '/api/v1/api-keys',
    operationId: 'listApiKeys',
    spec: true,
    tag: 'API keys',
    access: 'key',
    summary: "The account's API keys, newest first (never their secrets)",
    description: 'Every key of the account with its label, prefix, sites and dates; an account-level key is needed.',
    response: {
      status: 200,
      description: 'Keys, revoked and expired ones included',
      schema: z.array(ApiKeyResponse),
    },
    errors: [403],
    run: { handler: ({ principal }) => listApiKeys(principal) },
  }),
  endpoint({
    method: 'POST',
    path: '/api/v1/api-keys',
    operationId: 'createApiKey',
    spec: true,
    tag: 'API keys',
    access: 'key',
    summary: 'Create a key for the account; the response holds the raw key, shown this once',
    description: 'An account-level key is needed. Keep the returned key: only its hash is stored.',
    body: createApiKeyInput.meta({ id: 'CreateApiKeyRequest' }),
    response: { status: 200, description: 'The new key and its secret', schema: CreateApiKeyResponse },
    errors: [400, 403, 409, 415],
    run: { handler: async ({ principal, readBody }) => createApiKey(principal, await readBody(createApiKeyInput)) },
  }),
  endpoint({
    method: 'DELETE',
    path: '/api/v1/api-keys/{id}',
    operationId: 'revokeApiKey',
    spec: true,
    tag: 'API keys',
    access: 'key',
    summary: 'Revoke a key of the account; it answers 401 from then on',
    description: 'Takes effect at once; revoking a revoked key again answers 200 and keeps its first revocation time.',
    pathParams: idParam('id', "The key's id"),
    response: { status: 200, description: 'Revoked (no body)' },
    errors: [403, 404],
    run: { handler: async ({ principal, params: p }) => void (await revokeApiKey(principal, p.id)) },
  }),
  endpoint({
    method: 'POST',
    path: '/api/v1/api-keys/for-user/{userId}',
    operationId: 'createApiKeyForUser',
    spec: true,
    tag: 'API keys',
    access: 'operator',
    summary: "Operators: create a key for a publisher's account",
    description:
      "The same as creating a key, for the publisher named in the path; a key of the operator's account is needed. A deactivated account is a 409: its keys do not work.",
    pathParams: idParam('userId', "The publisher's account id"),
    body: createApiKeyInput,
    response: { status: 200, description: 'The new key and its secret', schema: CreateApiKeyResponse },
    errors: [400, 403, 404, 409, 415],
    run: {
      handler: async ({ principal, params: p, readBody }) =>
        createApiKeyForUser(principal, p.userId, await readBody(createApiKeyInput)),
    },
  }),
];
