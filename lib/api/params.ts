/**
 * The query parameters of each endpoint, as zod schemas for the OpenAPI document. Their keys are also the
 * parameters an endpoint accepts (lib/api/endpoints.ts): anything else is a 400. Names match in any letter
 * case; the values are parsed by the one query grammar (lib/query), whose limits are quoted here.
 */
import { z } from 'zod';
import { MAX_FILTER_TERMS, MAX_RANGE_DAYS, PAGE_SIZE_MAX, SEARCH_MAX_LENGTH, DEFAULT_PAGE_SIZE } from '@/lib/query';
import { BY_COUNTRY_FIELDS, COUNTRY_ROW_FIELDS } from './schemas';

const day = (which: string) =>
  z.iso.date().optional().meta({
    description: `${which} UTC day of the range, inclusive (YYYY-MM-DD). Without dates a report covers the account's default range ending today; a range spans at most ${MAX_RANGE_DAYS} days.`,
  });

export const siteDayParams = z.object({
  siteIds: z.string().optional().meta({
    description: 'Comma-separated site ids (UUIDs) to report on; all readable sites when absent. A site outside the key\'s scope is a 403.',
    example: '3f1c2a4e-1b2c-4d5e-8f90-1234567890ab,7a9b…',
  }),
  fromDate: day('First'),
  toDate: day('Last'),
});

const paging = (fields: string[]) => ({
  page: z.int().min(1).optional().meta({ description: 'Page number, from 1 (default 1). A page past the end is empty.' }),
  pageSize: z.int().min(1).max(PAGE_SIZE_MAX).optional().meta({ description: `Rows per page (default ${DEFAULT_PAGE_SIZE}).` }),
  ...sorting(fields),
});

const sorting = (fields: string[]) => ({
  sortBy: z.enum(fields).optional().meta({ description: 'Field to sort by; ties are broken so that pages never overlap.' }),
  sortDirection: z.enum(['asc', 'desc']).optional().meta({ description: 'Sort direction (any letter case; default asc).' }),
  Search: z.string().max(SEARCH_MAX_LENGTH).optional().meta({
    description: 'Case-insensitive text: matches a country by code or English name (and, in the per-row feed, a site by name).',
  }),
  Filter: z.string().optional().meta({
    description: `Terms \`field op value\` with ops == != > >= < <= =@ (contains) !@; \`,\` is OR and binds tighter than \`;\`, AND: \`a,b;c\` is (a OR b) AND c; at most ${MAX_FILTER_TERMS} terms. Example: \`cpm>2;country!=US\`. Fields: ${fields.join(', ')}.`,
  }),
  FilterList: z.record(z.string(), z.string()).optional().meta({
    description: 'FilterList[field]=v1,v2 (or FilterList.field): the field equals any of the values; entries AND with Filter.',
    style: 'deepObject',
    explode: true,
  }),
});

export const totalsParams = siteDayParams;
export const byCountryParams = siteDayParams.extend(paging(BY_COUNTRY_FIELDS));
export const countryRowsParams = z.object(paging(COUNTRY_ROW_FIELDS));
export const countryRowsExportParams = z.object(sorting(COUNTRY_ROW_FIELDS));
export const ingestParams = z.object({
  owner: z.email().optional().meta({ description: 'E-mail of the account whose sites the rows may name by siteName.' }),
});

/** The names a schema's endpoint accepts (the wrapper matches them in any letter case). */
export const paramNames = (schema: z.ZodObject | undefined): string[] => (schema ? Object.keys(schema.shape) : []);
