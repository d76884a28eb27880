import { defineRoutes } from '@/lib/http/api-route';
import { revokeApiKey } from '@/lib/services/api-keys';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoutes<{ id: string }>({
  // The spec's DELETE answers 200 with no body.
  DELETE: {
    handler: async ({ principal, params }) => {
      await revokeApiKey(principal, params.id);
    },
  },
});
