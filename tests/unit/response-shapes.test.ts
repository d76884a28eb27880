/**
 * Each response is declared once, as a zod schema (lib/<domain>/schemas.ts); whatever else names its fields must
 * name exactly the schema's: the query grammar's field lists (derived from it), the SQL of each field and the
 * mapping from the services' rows. The types hold most of it (Record<Field, …>, the mappings' return types, and
 * the expectTypeOf lines here, all checked by `npm run typecheck`); this holds the same at run time.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { SQLWrapper } from 'drizzle-orm';
import { fieldsOf } from '@/lib/query/fields';
import { byCountryColumns, rowFilterColumns, rowSortColumns } from '@/lib/reports/field-sql';
import { byCountryFields, rowFields, type ByCountryField, type RowField } from '@/lib/reports/fields';
import { BY_COUNTRY_COLUMNS, ROW_COLUMNS } from '@/lib/reports/reports';
import {
  byCountryResponse,
  rowResponse,
  totalsResponse,
  type CountrySums,
  type RevenueRow,
  type RevenueSums,
} from '@/lib/reports/responses';
import { rowColumns } from '@/lib/reports/rows-query';
import { RevenueByCountryResponse, RevenueRowResponse, RevenueTotalResponse } from '@/lib/reports/schemas';

const namesOf = (schema: z.ZodObject) => Object.keys(schema.shape);
const sorted = (names: string[]) => [...names].sort();

describe('the grammar fields of a report', () => {
  it('are its schema fields, in order, for the filter builder, the API and the CSV columns alike', () => {
    expect(byCountryFields.map((f) => f.name)).toEqual(namesOf(RevenueByCountryResponse));
    expect(BY_COUNTRY_COLUMNS).toEqual(namesOf(RevenueByCountryResponse));
    expect(rowFields.map((f) => f.name)).toEqual(namesOf(RevenueRowResponse));
    expect(ROW_COLUMNS).toEqual(namesOf(RevenueRowResponse));
  });

  it('are typed by their schemas: numbers, UUIDs, date-times as days, other text', () => {
    const typeOf = (fields: typeof rowFields | typeof byCountryFields) =>
      Object.fromEntries(fields.map((f) => [f.name, f.type]));
    expect(typeOf(rowFields)).toMatchObject({
      revenueAmount: 'number',
      clicks: 'number',
      country: 'string',
      createdAt: 'date',
      updatedAt: 'date',
      gameId: 'uuid',
      userId: 'uuid',
      gameName: 'string',
    });
    expect(typeOf(byCountryFields)).toMatchObject({ country: 'string', cpm: 'number', fillRate: 'number' });
  });

  it('take an enum of names (a status) as text', () => {
    expect(fieldsOf(z.object({ status: z.enum(['pending', 'live']).nullable() }))).toEqual([
      { name: 'status', type: 'string' },
    ]);
  });

  it('refuse a field the grammar has no type for', () => {
    expect(() => fieldsOf(z.object({ isActive: z.boolean() }))).toThrow(/no type for the field isActive/);
  });
});

describe('the SQL of a report', () => {
  it('has an expression for every schema field and for nothing else', () => {
    expect(sorted(Object.keys(byCountryColumns))).toEqual(sorted(namesOf(RevenueByCountryResponse)));
    expect(sorted(Object.keys(rowFilterColumns))).toEqual(sorted(namesOf(RevenueRowResponse)));
    expect(sorted(Object.keys(rowSortColumns))).toEqual(sorted(namesOf(RevenueRowResponse)));
    expectTypeOf(byCountryColumns).toEqualTypeOf<Record<ByCountryField, SQLWrapper>>();
    expectTypeOf(rowFilterColumns).toEqualTypeOf<Record<RowField, SQLWrapper>>();
    expectTypeOf(rowSortColumns).toEqualTypeOf<Record<RowField, SQLWrapper>>();
  });
});

describe('the mapping of a report from its sums in micro-dollars', () => {
  const sums: RevenueSums = { revenueMicros: 1_234_567, impressions: 800, adRequests: 1_000 };
  const row: RevenueRow = {
    siteId: '3f1c2a4e-1b2c-4d5e-8f90-1234567890ab',
    userId: '7a9b2a4e-1b2c-4d5e-8f90-1234567890ab',
    day: '2026-11-24',
    country: 'DE',
    impressions: 800,
    clicks: 3,
    adRequests: 1_000,
    revenueMicros: 1_234_567,
    updatedAt: new Date('2026-11-25T01:02:03.456Z'),
    adUnitId: null,
    gameName: 'Word Garden',
  };

  // Strict: a field the mapping adds or leaves out fails here (the JSON key order is the schema's, too).
  const expectShape = (schema: z.ZodObject, value: object) => {
    expect(z.strictObject(schema.shape).safeParse(value).error).toBeUndefined();
    expect(Object.keys(value)).toEqual(namesOf(schema));
  };

  it('gives exactly the fields of its schema, money in dollars', () => {
    expectShape(RevenueTotalResponse, totalsResponse(sums));
    expectShape(RevenueByCountryResponse, byCountryResponse({ ...sums, country: 'DE' }));
    expectShape(RevenueRowResponse, rowResponse(row));
    expect(totalsResponse(sums)).toMatchObject({ totalRevenue: 1.234567, averageCpm: 1.54320875, fillRate: 0.8 });
    expect(rowResponse(row)).toMatchObject({ revenueAmount: 1.234567, createdAt: '2026-11-24T00:00:00.000Z' });
  });

  it('reads a row with a column for each of its fields', () => {
    expect(sorted(Object.keys(rowColumns))).toEqual(sorted(Object.keys(row)));
    expectTypeOf<keyof typeof rowColumns>().toEqualTypeOf<keyof RevenueRow>();
  });

  it('is typed by the schema it answers', () => {
    expectTypeOf(totalsResponse).returns.toEqualTypeOf<RevenueTotalResponse>();
    expectTypeOf(byCountryResponse).parameter(0).toEqualTypeOf<CountrySums>();
    expectTypeOf(byCountryResponse).returns.toEqualTypeOf<RevenueByCountryResponse>();
    expectTypeOf(rowResponse).returns.toEqualTypeOf<RevenueRowResponse>();
  });
});
