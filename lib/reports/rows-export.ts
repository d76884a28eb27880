/**
 * The bulk export of the rows: every row that their Filter, Search and sort select (rows-query.ts), as CSV or
 * NDJSON, read from one snapshot in constant memory (Database.stream) and formatted in batches. The rows are
 * exactly the paged endpoint's: the same selection, the same rowResponse.
 */
import { eq, sql } from 'drizzle-orm';
import { getReadDatabase } from '@/db/client';
import { revenueDaily, sites } from '@/db/schema';
import type { StreamRow } from '@/db/stream';
import { csvCell } from '@/lib/shared/csv';
import { exportLimits } from '@/lib/platform/env';
import type { RowsInput } from '@/lib/query';
import { requireAccountLevel, type Principal } from '@/lib/access';
import { selectRows, SITE_FIELDS } from './rows-query';
import { adUnitIdOf } from './field-sql';
import { ROW_COLUMNS } from './reports';
import { rowResponse, type RevenueRow } from './responses';

export type ExportFormat = 'csv' | 'ndjson';

/**
 * A caller's own text for the rows (the dashboard's spreadsheet CSV): a header line and a line per row, from the
 * row as read (money in integer micro-dollars).
 */
export interface LineFormat {
  header: string;
  line: (row: RevenueRow) => string;
}

/** Rows per cursor fetch and per chunk written: large enough to amortise round trips, ~1 MB of text. */
const BATCH_ROWS = 5_000;

const r = revenueDaily;
/**
 * A row as read: the daily row's own columns, in forms both drivers return alike and cheap to produce (the
 * day as text, the timestamp as date_part's epoch seconds, a double: numeric arithmetic on it would cost the
 * database more than the rest of the row). Its site's name and ad unit come from a lookup and userId from
 * the request, so sites is not joined and no repeated strings cross the wire.
 */
const STREAMED_COLUMNS = {
  siteId: r.siteId,
  day: sql<string>`${r.day}::text`,
  country: r.country,
  impressions: r.impressions,
  clicks: r.clicks,
  adRequests: r.adRequests,
  revenueMicros: r.revenueMicros,
  updatedAtSeconds: sql<number>`date_part('epoch', ${r.updatedAt})`,
  adUnitId: r.adUnitId,
};
type RawRow = [string, string, string, unknown, unknown, unknown, unknown, number, string | null];
type SiteFields = { name: string | null; adUnitId: string | null };

/**
 * The Date the paged rows read for a timestamp (JavaScript keeps milliseconds and truncates the rest) from its
 * epoch seconds as a double: rounding to the microsecond first is exact, as a double's error there is far
 * below half a microsecond.
 */
const dateFromEpochSeconds = (seconds: number) => new Date(Math.floor(Math.round(seconds * 1e6) / 1000));

/**
 * The rows for the request, as chunks of CSV (header line first) or NDJSON text. The key's scope is
 * checked at once (403); the rows are read only when the chunks are: nothing is opened for a body that is
 * never read.
 */
export async function exportRows(
  principal: Principal,
  request: RowsInput,
  format: ExportFormat | LineFormat,
): Promise<AsyncIterable<string>> {
  requireAccountLevel(principal, 'The export of rows');
  const { userId } = principal;
  const database = await getReadDatabase();
  const selection = await selectRows(database.db, { userId, ...request });
  const selected = database.db.select(STREAMED_COLUMNS).from(r).$dynamic();
  // Filtering or sorting on a site field needs sites in the SQL; the output takes them from the lookup anyway.
  const joinSites = selection.usesSites || SITE_FIELDS.has(request.sortBy ?? '');
  const joined = joinSites ? selected.innerJoin(sites, eq(sites.id, r.siteId)) : selected;
  const rows = joined.where(selection.where).orderBy(...selection.orderBy);
  const siteLookup = database.db
    .select({ id: sites.id, name: sites.name, adUnitId: sites.adUnitId })
    .from(sites)
    .where(eq(sites.userId, userId));
  // The sites are read in the rows' snapshot: every row's site is there, with the name it had then.
  const batches = database.stream(rows.getSQL(), {
    batchSize: BATCH_ROWS,
    first: siteLookup.getSQL(),
    ...exportLimits(),
  });
  return chunks(batches, format, userId);
}

async function* chunks(batches: AsyncIterable<StreamRow[]>, format: ExportFormat | LineFormat, userId: string) {
  let sitesById: Map<string, SiteFields> | undefined;
  let header = typeof format === 'object' ? `${format.header}\n` : format === 'csv' ? `${ROW_COLUMNS.join(',')}\n` : '';
  for await (const batch of batches) {
    if (!sitesById) {
      sitesById = new Map(batch.map(([id, name, adUnitId]) => [id as string, { name, adUnitId } as SiteFields]));
      continue;
    }
    const toRow = (raw: StreamRow) => exportRow(raw as RawRow, userId, sitesById!);
    yield header + formatBatch(batch, format, toRow);
    header = '';
  }
  // No rows: CSV is its header line alone, NDJSON is empty.
  if (header) yield header;
}

/** A raw row as the paged endpoint reads it (rowColumns). */
function exportRow(raw: RawRow, userId: string, sitesById: Map<string, SiteFields>): RevenueRow {
  const [siteId, day, country, impressions, clicks, adRequests, revenueMicros, updatedAtSeconds, adUnitId] = raw;
  const site = sitesById.get(siteId);
  return {
    siteId,
    userId,
    day,
    country,
    // int8 columns arrive as strings (postgres.js) or numbers (PGlite).
    impressions: Number(impressions),
    clicks: Number(clicks),
    adRequests: Number(adRequests),
    revenueMicros: Number(revenueMicros),
    updatedAt: dateFromEpochSeconds(updatedAtSeconds),
    adUnitId: adUnitIdOf(adUnitId, site?.adUnitId),
    gameName: site?.name ?? null,
  };
}

/** A batch as one chunk of text: lines joined once per batch, not written row by row. */
function formatBatch(
  batch: StreamRow[],
  format: ExportFormat | LineFormat,
  toRow: (raw: StreamRow) => RevenueRow,
): string {
  const columns = ROW_COLUMNS;
  const lines = new Array<string>(batch.length);
  const cells = new Array<string>(columns.length);
  for (let i = 0; i < batch.length; i++) {
    const row = toRow(batch[i]);
    if (typeof format === 'object') {
      lines[i] = format.line(row);
      continue;
    }
    const response = rowResponse(row);
    if (format === 'ndjson') {
      lines[i] = JSON.stringify(response);
      continue;
    }
    for (let c = 0; c < columns.length; c++) cells[c] = csvCell(response[columns[c]]);
    lines[i] = cells.join(',');
  }
  return `${lines.join('\n')}\n`;
}
