import { defineRoutes } from '@/lib/http/api-route';
import { BY_COUNTRY_COLUMNS, BY_COUNTRY_PARAMS, getRevenueByCountry } from '@/lib/services/reports';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoutes({
  GET: {
    params: BY_COUNTRY_PARAMS,
    csvColumns: BY_COUNTRY_COLUMNS,
    handler: ({ principal, query }) => getRevenueByCountry(principal, query),
  },
});
