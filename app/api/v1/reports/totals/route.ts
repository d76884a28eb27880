import { defineRoutes } from '@/lib/http/api-route';
import { getTotals, TOTALS_PARAMS } from '@/lib/services/reports';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoutes({
  GET: { params: TOTALS_PARAMS, handler: ({ principal, query }) => getTotals(principal, query) },
});
