import { QueryParams } from '@/lib/query';
import type { SearchParams } from './filters';

/**
 * The Countries page speaks the by-country endpoint's grammar in its URL: `page`, `pageSize`, `sortBy`,
 * `sortDirection`, `Search`, `Filter`, `FilterList[…]` as the API names them, plus the shared filter bar's
 * `from`/`to`/`sites`, which map to `fromDate`/`toDate`/`siteIds`.
 */
const PASSED = ['page', 'pageSize', 'sortBy', 'sortDirection', 'Search', 'Filter'];

export function countriesQuery(searchParams: SearchParams, filters: { from: string; to: string; sites: string[] | null }) {
  const params: Record<string, string | string[] | undefined> = {
    fromDate: filters.from,
    toDate: filters.to,
    ...(filters.sites ? { siteIds: filters.sites.join(',') } : {}),
  };
  for (const [name, value] of Object.entries(searchParams)) {
    if (PASSED.some((p) => p.toLowerCase() === name.toLowerCase()) || /^filterlist[[.]/i.test(name)) params[name] = value;
  }
  return QueryParams.from(params);
}
