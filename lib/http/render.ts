import { stringify } from 'csv-stringify/sync';
import { CSV_TYPE, type ResponseType } from './negotiate';

interface PagedBody {
  data: Record<string, unknown>[];
  meta: { page: number; pageSize: number; totalRows: number; totalPages: number };
}

function isPaged(value: unknown): value is PagedBody {
  return typeof value === 'object' && value !== null && Array.isArray((value as PagedBody).data) && 'meta' in value;
}

/**
 * Spreadsheets run a cell that starts with = + - @ (or a tab/CR) as a formula; a site named "=HYPERLINK(…)"
 * must open as text. OWASP's advice: prefix such cells with a single quote. Numbers are not strings here.
 */
const neutralizeFormula = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/**
 * A handler's result as the negotiated media type. `undefined` is the spec's "no body" 200 (DELETE).
 * CSV carries the rows of the page; the paging figures go into headers since CSV has no envelope.
 */
export function renderBody(
  result: unknown,
  type: ResponseType,
  csvColumns: readonly string[] | undefined,
  headers: Headers,
): Response {
  if (result === undefined) return new Response(null, { status: 200, headers });
  if (type === CSV_TYPE && csvColumns && isPaged(result)) {
    const { meta } = result;
    headers.set('Content-Type', 'text/csv; charset=utf-8');
    headers.set('X-Total-Rows', String(meta.totalRows));
    headers.set('X-Total-Pages', String(meta.totalPages));
    const csv = stringify(result.data, { header: true, columns: [...csvColumns], cast: { string: neutralizeFormula } });
    return new Response(csv, { status: 200, headers });
  }
  headers.set('Content-Type', `${type}; charset=utf-8`);
  return new Response(JSON.stringify(result), { status: 200, headers });
}
