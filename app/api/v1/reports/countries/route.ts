import { defineRoutes } from '@/lib/http/api-route';
import { COUNTRY_ROW_COLUMNS, COUNTRY_ROWS_PARAMS, getCountryRows } from '@/lib/services/reports';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoutes({
  GET: {
    params: COUNTRY_ROWS_PARAMS,
    csvColumns: COUNTRY_ROW_COLUMNS,
    handler: ({ principal, query }) => getCountryRows(principal, query),
  },
});
