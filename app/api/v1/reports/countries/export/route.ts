import { routesFor } from '@/lib/api/routes';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routesFor('/api/v1/reports/countries/export');

// The export streams for at most EXPORT_WALL_CLOCK_MS (lib/limits.ts): 300 s, the most Vercel allows on every plan
// with fluid compute (README, "Deploying to Vercel").
export const maxDuration = 300;
