import { routesFor } from '@/lib/api/routes';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routesFor('/api/v1/reports/countries/export');

// The most Vercel allows on every plan with fluid compute (README, "Deploying to Vercel"); the export ends itself
// a little earlier, at EXPORT_WALL_CLOCK_MS (lib/platform/limits.ts).
export const maxDuration = 300;
