import { defineRoutes } from '@/lib/http/api-route';
import { COUNTRY_ROW_COLUMNS, COUNTRY_ROWS_PARAMS, getCountryRows } from '@/lib/services/reports';

/** The deprecated legacy feed (spec §9): the successor's rows, with the key also allowed in `?apiKey=`. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoutes({
  GET: {
    keyInQuery: true,
    params: COUNTRY_ROWS_PARAMS,
    csvColumns: COUNTRY_ROW_COLUMNS,
    headers: {
      Deprecation: 'true',
      Sunset: 'Wed, 30 Jun 2027 23:59:59 GMT',
      Link: '</api/v1/reports/countries>; rel="successor-version"',
    },
    handler: ({ principal, query }) => getCountryRows(principal, query),
  },
});
