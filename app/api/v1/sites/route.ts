import { defineRoutes } from '@/lib/http/api-route';
import { listSites } from '@/lib/services/sites';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoutes({
  GET: { handler: ({ principal }) => listSites(principal) },
});
