import { defineRoutes } from '@/lib/http/api-route';

const HEALTHY = { status: 'ok' } as const;

/**
 * Liveness, and the framework floor a benchmark compares the other routes against: a constant body through
 * the same wrapper (request id, rate limit, negotiation, render), with no key and no database.
 */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoutes({
  GET: { public: true, handler: async () => HEALTHY },
});
