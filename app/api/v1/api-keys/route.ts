import { defineRoutes } from '@/lib/http/api-route';
import { createApiKey, createApiKeyInput, listApiKeys } from '@/lib/services/api-keys';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoutes({
  GET: { handler: ({ principal }) => listApiKeys(principal) },
  POST: { handler: async ({ principal, readBody }) => createApiKey(principal, await readBody(createApiKeyInput)) },
});
