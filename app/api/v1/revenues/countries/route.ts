import { defineRoutes } from '@/lib/http/api-route';
import { COUNTRY_ROW_COLUMNS, COUNTRY_ROWS_PARAMS, getCountryRows } from '@/lib/services/reports';

/** The deprecated legacy feed (spec §9): the successor's rows, with the key allowed in `?apiKey=`. */
const LEGACY_SUNSET = 'Wed, 30 Jun 2027 23:59:59 GMT';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoutes({
  GET: {
    keyInQuery: true,
    params: COUNTRY_ROWS_PARAMS,
    csvColumns: COUNTRY_ROW_COLUMNS,
    handler: ({ principal, query, responseHeaders }) => {
      responseHeaders.set('Deprecation', 'true');
      responseHeaders.set('Sunset', LEGACY_SUNSET);
      responseHeaders.set('Link', '</api/v1/reports/countries>; rel="successor-version"');
      return getCountryRows(principal, query);
    },
  },
});
