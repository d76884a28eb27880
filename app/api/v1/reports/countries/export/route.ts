import { defineRoutes } from '@/lib/http/api-route';
import { CSV_TYPE, NDJSON_TYPE } from '@/lib/http/negotiate';
import { StreamedBody } from '@/lib/http/render';
import { todayUtc } from '@/lib/query';
import { exportCountryRows, FEED_EXPORT_PARAMS } from '@/lib/services/feed-export';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoutes({
  GET: {
    params: FEED_EXPORT_PARAMS,
    offers: [CSV_TYPE, NDJSON_TYPE],
    handler: async ({ principal, query, type }) => {
      const format = type === NDJSON_TYPE ? 'ndjson' : 'csv';
      const chunks = await exportCountryRows(principal, query, format);
      return new StreamedBody(chunks, `revenue-rows-${todayUtc()}.${format}`);
    },
  },
});
