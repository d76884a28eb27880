import { routesFor } from '@/lib/api/routes';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routesFor('/api/v1/webhooks/{id}/deliveries');
