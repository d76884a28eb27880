/**
 * A query string read into an endpoint's typed input in one pass. Each endpoint's parameters are one zod
 * object: it documents them (type, format, limits: the OpenAPI document is generated from it) and it parses
 * them, handing every raw value to the grammar, which words the errors. All mistakes come back together, in
 * one 400, before any database work.
 */
import { z } from '@/lib/shared/zod';
import { ValidationError, type FieldError } from '@/lib/shared/errors';
import { fieldErrorsOf } from '@/lib/shared/zod-issues';
import { collect, throwIfAny } from './collect';
import { MAX_RANGE_DAYS, parseDay, resolveRange, todayUtc, type DaySelection } from './dates';
import { fieldNames, type FieldDef } from './fields';
import { MAX_FILTER_LIST_VALUES, MAX_FILTER_TERMS, parseFilter, parseFilterList, type FilterExpr } from './filter';
import { parseSearch, SEARCH_MAX_LENGTH } from './search';
import {
  DEFAULT_PAGE_SIZE,
  PAGE_MAX,
  PAGE_SIZE_MAX,
  parsePage,
  parsePageSize,
  parseSortBy,
  parseSortDirection,
  type Paging,
} from './paging';
import type { QueryParams } from './params';
import { parseSiteIds } from './site-ids';

/** Runs a grammar parser inside zod; its errors become issues that keep their parameter's name. */
function viaGrammar<I, O>(parse: (raw: I) => O) {
  return (raw: unknown, ctx: z.RefinementCtx): O | undefined => {
    if (raw === undefined) return undefined;
    try {
      return parse(raw as I);
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      for (const { parameter, detail } of err.errors ?? []) {
        ctx.addIssue({ code: 'custom', message: detail, input: raw, params: { parameter } });
      }
      return undefined;
    }
  };
}

/** A parameter the grammar reads into a value that `shape` types, documents and checks again. */
const param = <T extends z.ZodType>(shape: T, parse: (raw: string) => z.output<T>) =>
  z.preprocess(viaGrammar(parse), shape.optional());

/** A parameter documented as text and read by the grammar into something else (ids, a filter expression). */
const textParam = <O>(parse: (raw: string) => O) => z.string().optional().transform(viaGrammar(parse));

/** A regular expression that matches exactly the values, in any letter case: `asc` → `[Aa][Ss][Cc]`. */
const anyCasePattern = (values: readonly string[]) =>
  `^(?:${values
    .map((value) =>
      [...value]
        .map((c) =>
          c.toLowerCase() !== c.toUpperCase()
            ? `[${c.toUpperCase()}${c.toLowerCase()}]`
            : c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&'),
        )
        .join(''),
    )
    .join('|')})$`;

/**
 * One of the values, which the grammar reads in any letter case: documented as a pattern that tools check
 * the same way (an enum would make them refuse `DESC`), with the values themselves as examples.
 */
const anyCaseEnum = (values: readonly [string, ...string[]]) =>
  z.enum(values).meta({
    override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
      delete jsonSchema.enum;
      jsonSchema.pattern = anyCasePattern(values);
      jsonSchema.examples = [...values];
    },
  });

const day = (parameter: 'fromDate' | 'toDate', which: string) =>
  param(z.iso.date(), (raw) => parseDay(raw, parameter)).meta({
    description: `${which} UTC day of the range, inclusive (YYYY-MM-DD). Without dates a report covers the account's default range ending today; a range spans at most ${MAX_RANGE_DAYS} days.`,
  });

/** siteIds, fromDate, toDate: which sites and days a report covers. */
const siteDayParams = {
  siteIds: textParam(parseSiteIds).meta({
    description:
      "Comma-separated site ids (UUIDs) to report on; all readable sites when absent. A site outside the key's scope is a 403.",
    example: '3f1c2a4e-1b2c-4d5e-8f90-1234567890ab,7a9b…',
  }),
  fromDate: day('fromDate', 'First'),
  toDate: day('toDate', 'Last'),
};

/** sortBy, sortDirection, Search, Filter, FilterList over an endpoint's row fields. */
const COUNTRY_SEARCH =
  'Case-insensitive text: matches a country by code or English name (and, in rows, a site by name).';

/** What a list's Filter and FilterList examples show: terms of its own fields (tests/unit/grammar-examples.test.ts). */
export interface GrammarExamples {
  filter: string;
  filterList: Record<string, string>;
}
/** The reports' examples: their rows have countries and an eCPM. */
const REPORT_EXAMPLES: GrammarExamples = { filter: 'cpm>2;country!=US', filterList: { country: 'US,DE' } };

const sortingParams = (
  fields: readonly FieldDef[],
  searchDescription = COUNTRY_SEARCH,
  examples: GrammarExamples = REPORT_EXAMPLES,
) => ({
  sortBy: param(anyCaseEnum(fields.map((f) => f.name) as [string, ...string[]]), (raw) =>
    parseSortBy(raw, fields),
  ).meta({
    description: `Field to sort by, in any letter case: ${fieldNames(fields)}. Ties are broken so that pages never overlap.`,
  }),
  sortDirection: param(anyCaseEnum(['asc', 'desc']), parseSortDirection).meta({
    description: 'Sort direction, in any letter case: asc (the default) or desc.',
  }),
  Search: textParam(parseSearch).meta({
    description: searchDescription,
    maxLength: SEARCH_MAX_LENGTH,
  }),
  Filter: textParam((raw) => parseFilter(raw, fields)).meta({
    description: `Terms \`field op value\` with ops == != > >= < <= =@ (contains) !@; \`,\` is OR and binds tighter than \`;\`, AND: \`a,b;c\` is (a OR b) AND c; at most ${MAX_FILTER_TERMS} terms. Example: \`${examples.filter}\`. Fields: ${fieldNames(fields)}.`,
  }),
  FilterList: z
    .record(z.string(), z.string())
    .optional()
    .transform(
      viaGrammar((entries: Record<string, string>) =>
        parseFilterList(
          Object.entries(entries).map(([key, value]) => ({ key, value })),
          fields,
        ),
      ),
    )
    .meta({
      description: `FilterList[field]=v1,v2 (also accepted as FilterList.field=v1,v2): the field equals any of the comma-separated values; entries AND with each other and with Filter; at most ${MAX_FILTER_LIST_VALUES} values in all. Fields: ${fieldNames(fields)}.`,
      param: { style: 'deepObject', explode: true, example: examples.filterList },
    }),
});

/** page and pageSize, then the sorting and filtering parameters. */
const pagingParams = (fields: readonly FieldDef[], searchDescription?: string, examples?: GrammarExamples) => ({
  page: param(z.int().min(1).max(PAGE_MAX), parsePage).meta({
    description: 'Page number, from 1 (default 1). A page past the end is empty.',
  }),
  pageSize: param(z.int().min(1).max(PAGE_SIZE_MAX), parsePageSize).meta({
    description: `Rows per page (default ${DEFAULT_PAGE_SIZE}).`,
  }),
  ...sortingParams(fields, searchDescription, examples),
});

/** Which sites and days: null where the request gave none (the range is resolved after scope). */
export interface SiteDayInput extends DaySelection {
  siteIds: string[] | null;
}

/** Which rows and in what order. */
export interface RowsInput extends Pick<Paging, 'sortBy' | 'sortDirection'> {
  /** Filter AND FilterList; empty when neither was given. */
  filter: FilterExpr;
  search: string | null;
}

/** Which rows, in what order, and which page of them (a Paging too). */
export type PagedRowsInput = RowsInput & Paging;

type Given = Partial<Record<string, unknown>>;
// The parsed values, typed by the schemas that produced them (zod cannot carry that through a generic shape).
const siteDayOf = (v: Given): SiteDayInput => ({
  siteIds: (v.siteIds as string[] | null | undefined) ?? null,
  fromDate: (v.fromDate as string | undefined) ?? null,
  toDate: (v.toDate as string | undefined) ?? null,
});
const rowsOf = (v: Given): RowsInput => ({
  sortBy: (v.sortBy as string | undefined) ?? null,
  sortDirection: (v.sortDirection as Paging['sortDirection'] | undefined) ?? 'asc',
  filter: [...((v.Filter as FilterExpr | undefined) ?? []), ...((v.FilterList as FilterExpr | undefined) ?? [])],
  search: (v.Search as string | null | undefined) ?? null,
});
const pagedRowsOf = (v: Given): PagedRowsInput => ({
  ...rowsOf(v),
  page: (v.page as number | undefined) ?? 1,
  pageSize: (v.pageSize as number | undefined) ?? DEFAULT_PAGE_SIZE,
});

/** One parser's 400 as issues of the object being refined, under their own parameter names. */
function addIssuesOf(ctx: z.RefinementCtx, parse: () => unknown): void {
  const errors: FieldError[] = [];
  collect(errors, parse);
  for (const { parameter, detail } of errors) ctx.addIssue({ code: 'custom', message: detail, params: { parameter } });
}

const isRangeEnd = (issue: { path?: PropertyKey[] }) => issue.path?.[0] === 'fromDate' || issue.path?.[0] === 'toDate';

/**
 * An endpoint's parameters as one schema: the object is what the document shows, the result is the typed
 * input. A range's ends are checked against each other here, with the shortest default (a lone toDate only
 * ever looks back), so that those errors come with the others; the account's default range is applied after
 * scope, by resolveRange.
 */
function querySchema<S extends z.ZodRawShape, T>(shape: S, toInput: (given: Given) => T) {
  const hasRange = 'fromDate' in shape;
  return z
    .object(shape)
    .superRefine(
      (given, ctx) => {
        if (hasRange) addIssuesOf(ctx, () => resolveRange(siteDayOf(given), { defaultDays: 1, today: todayUtc() }));
      },
      // Also when other parameters failed, unless an end itself did (then there is nothing to compare).
      { when: (payload) => !payload.issues.some(isRangeEnd) },
    )
    .transform((given) => toInput(given));
}

export type QuerySchema<T> = z.ZodPipe<z.ZodObject, z.ZodTransform<T>>;

export const totalsQuery = querySchema(siteDayParams, siteDayOf);
export const byCountryQueryOf = (fields: readonly FieldDef[]) =>
  querySchema({ ...pagingParams(fields), ...siteDayParams }, (v) => ({ ...siteDayOf(v), ...pagedRowsOf(v) }));
/** `searchDescription` says what Search matches when it is not a country (the reports' meaning). */
export const pagedRowsQueryOf = (fields: readonly FieldDef[], searchDescription?: string, examples?: GrammarExamples) =>
  querySchema(pagingParams(fields, searchDescription, examples), pagedRowsOf);
export const rowsQueryOf = (fields: readonly FieldDef[]) => querySchema(sortingParams(fields), rowsOf);

/** The parameters a schema takes, by their canonical names. */
const paramNamesOf = (schema: QuerySchema<unknown>) => Object.keys(schema.in.shape);

/**
 * Reads a query into a schema's input, with every mistake in one ValidationError: names the endpoint does not
 * take (with `rejectUnknown`, listing any names taken besides the schema's), a FilterList key without a
 * field, and each value.
 */
export function readQuery<T>(
  schema: QuerySchema<T>,
  query: QueryParams,
  opts: { rejectUnknown?: boolean; alsoAccepted?: readonly string[] } = {},
): T {
  const errors: FieldError[] = [];
  const names = paramNamesOf(schema);
  if (opts.rejectUnknown) collect(errors, () => query.assertOnly([...names, ...(opts.alsoAccepted ?? [])]));
  const given = Object.fromEntries(
    names.map((name) => [name, name === 'FilterList' ? filterListOf(query, errors) : query.get(name)]),
  );
  const parsed = schema.safeParse(given);
  if (!parsed.success) errors.push(...fieldErrorsOf(parsed.error, 'query'));
  throwIfAny(errors);
  return parsed.data!;
}

function filterListOf(query: QueryParams, errors: FieldError[]): Record<string, string> | undefined {
  const entries = collect(errors, () => query.filterListEntries()) ?? [];
  return entries.length > 0 ? Object.fromEntries(entries.map((e) => [e.key, e.value])) : undefined;
}
