/**
 * POST /api/v1/admin/revenue: the import (./import.ts) for pipelines, over HTTP. The same
 * validation and upsert as `npm run import`, with limits that keep one request small.
 */
import { z } from 'zod';
import { AppError } from '@/lib/shared/errors';
import type { ImportFormat } from '@/lib/revenue-in/parse';
import { requireAccountLevel, type Principal } from '@/lib/access';
import { importRevenue } from './import';
import type { ImportSummary } from './schemas';

/** `owner`: whose sites the rows may name by siteName (checked by the import, which says when it is unknown). */
export const ingestQuery = z
  .object({
    owner: z
      .string()
      .optional()
      .meta({ description: 'E-mail of the account whose sites the rows may name by siteName.', format: 'email' }),
  })
  .transform(({ owner }) => ({ owner: owner ?? null }));

export const INGEST_MAX_ROWS = 50_000;
export const INGEST_MAX_BYTES = 16 * 1024 * 1024;
const INGEST_MAX_ERRORS = 1_000;

export async function ingestRevenue(
  principal: Principal,
  input: { format: ImportFormat; body: AsyncIterable<Uint8Array>; owner: string | null },
): Promise<ImportSummary> {
  requireAccountLevel(principal, 'Importing revenue'); // and importRevenue admits admins only
  const result = await importRevenue(principal, input.body, {
    format: input.format,
    owner: input.owner,
    maxRows: INGEST_MAX_ROWS,
    maxErrors: INGEST_MAX_ERRORS,
  });
  if (result.ok) return result.summary;
  if (result.tooManyRows) {
    throw new AppError(
      'too_large',
      `Send at most ${INGEST_MAX_ROWS.toLocaleString('en-US')} rows per request; split the file, or load it with npm run import.`,
    );
  }
  const { errors, errorCount } = result;
  const listed = errorCount > errors.length ? `; the first ${errors.length} are listed` : '';
  const fieldErrors = errors.map((e) => ({
    parameter: e.field,
    ...(e.line > 0 ? { line: e.line } : {}),
    detail: e.detail,
  }));
  throw new AppError(
    'invalid',
    `${errorCount} bad ${errorCount === 1 ? 'line' : 'lines'} in the body${listed}. Nothing was imported.`,
    {
      errors: fieldErrors,
      extensions: { errorCount },
    },
  );
}
