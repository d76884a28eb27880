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
import { RevenueByCountryResponse, RevenueRowResponse } from '@/lib/reports/schemas';

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
