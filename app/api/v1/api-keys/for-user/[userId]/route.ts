import { defineRoutes } from '@/lib/http/api-route';
import { createApiKeyForUser, createApiKeyInput } from '@/lib/services/api-keys';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoutes<{ userId: string }>({
  POST: {
    handler: async ({ principal, params, readBody }) =>
      createApiKeyForUser(principal, params.userId, await readBody(createApiKeyInput)),
  },
});
