import { expect } from 'vitest';
import { ValidationError, type FieldError } from '@/lib/shared/errors';
import { QueryParams, readQuery, rowsQueryOf, pagedRowsQueryOf, totalsQuery, type FieldDef } from '@/lib/query';

/** Runs fn, asserts it threw a 400 ValidationError, and returns its field errors. */
export function errorsOf(fn: () => unknown): FieldError[] {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).code).toBe('invalid');
    return (e as ValidationError).errors ?? [];
  }
  throw new Error('expected a ValidationError, but nothing was thrown');
}

/** QueryParams from a query string like "page=2&sortBy=country". */
export const qp = (query: string) => QueryParams.from(new URLSearchParams(query));

/** What an endpoint with these row fields reads from a query string, as the API adapter reads it. */
export const readRows = (query: string, fields: readonly FieldDef[]) => readQuery(rowsQueryOf(fields), qp(query));
export const readPaged = (query: string, fields: readonly FieldDef[]) => readQuery(pagedRowsQueryOf(fields), qp(query));
export const readSiteDay = (query: string) => readQuery(totalsQuery, qp(query));
