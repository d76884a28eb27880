import { defineRoutes } from '@/lib/http/api-route';
import { ENDPOINTS } from './endpoints';

/** A route file's handlers: the table's endpoints at `path` through the one route wrapper. */
export function routesFor(path: string) {
  const here = ENDPOINTS.filter((e) => e.path === path);
  if (here.length === 0) throw new Error(`lib/api/endpoints.ts has no endpoint at ${path}`);
  const byMethod = Object.fromEntries(
    here.map((e) => [
      e.method,
      {
        ...e.run,
        public: e.access === 'public',
        query: e.query,
        headers: e.headers,
        report: e.tag === 'Reports',
      },
    ]),
  );
  return defineRoutes(byMethod as never);
}
