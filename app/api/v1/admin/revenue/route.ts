import { routesFor } from '@/lib/api/routes';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routesFor('/api/v1/admin/revenue');

// The bulk ingestion answers within INGEST_REQUEST_DEADLINE_MS (60 s, lib/platform/limits.ts): room for that answer.
export const maxDuration = 90;
