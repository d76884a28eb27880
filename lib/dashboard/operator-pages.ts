import { notFound } from 'next/navigation';
import { isOperator, type OperatorPower, type Principal } from '@/lib/access';
import { listPeople, listPublisherAccounts, peopleQuery, publishersQuery } from '@/lib/accounts';
import { listPayouts } from '@/lib/payments';
import type { QuerySchema } from '@/lib/query';
import { ValidationError } from '@/lib/shared/errors';
import { allowedTransitions, listSitesForReview, siteHistories, siteListQuery, SITE_STATUSES } from '@/lib/sites';
import { requirePerson } from './session';
import { paramOf, readView, type SearchParams } from './url';
import { publishersFor } from './viewer';

/**
 * The operator's pages' data (the report pages' is lib/dashboard/report-page.ts): each page's URL read with the
 * API's query schema and the query grammar, through the same services as the API, for a principal whose role
 * grants the page. To anyone else the page does not exist: not "forbidden", a 404.
 */
export async function operatorPrincipal(power: OperatorPower = 'operate'): Promise<Principal> {
  const { principal } = await requirePerson();
  if (!isOperator(principal, power)) notFound();
  return principal;
}

/**
 * A list's input from the page's URL, with the page's own defaults (its page size); a hand-edited URL the grammar
 * refuses shows the list's first page instead.
 */
function listInput<T>(query: QuerySchema<T>, params: SearchParams, defaults: Record<string, string> = {}): T {
  const given = new URLSearchParams(defaults);
  for (const [name, value] of Object.entries(params)) {
    given.delete(name);
    for (const one of [value ?? []].flat()) given.append(name, one);
  }
  const read = readView(query, given);
  if (!(read instanceof ValidationError)) return read;
  const first = readView(query, defaults);
  if (first instanceof ValidationError) throw first;
  return first;
}

export async function loadPublishers(params: SearchParams) {
  const principal = await operatorPrincipal();
  return listPublisherAccounts(principal, listInput(publishersQuery, params));
}

/** The review queue and People show this many a page. */
const PAGE_OF_50 = { pageSize: '50' };

/**
 * The review queue: `?status=` (a tab) is the grammar's `FilterList[status]`, `?page=` its page; each site with the
 * moves open from its status and its history.
 */
export async function loadSiteReview(params: SearchParams) {
  const principal = await operatorPrincipal();
  const status = SITE_STATUSES.find((s) => s === paramOf(params, 'status')?.toLowerCase()) ?? null;
  const view = { page: paramOf(params, 'page') ?? '1', ...(status ? { 'FilterList[status]': status } : {}) };
  const [{ data, meta }, publishers] = await Promise.all([
    listSitesForReview(principal, listInput(siteListQuery, view, PAGE_OF_50)),
    publishersFor(principal),
  ]);
  const histories = await siteHistories(
    principal,
    data.map((s) => s.siteId),
  );
  const sites = data.map((site) => ({
    ...site,
    moves: allowedTransitions(site.status ?? 'pending').filter((to) => to !== 'pending'),
    history: histories.get(site.siteId) ?? [],
  }));
  return { status, sites, meta, publishers };
}

export async function loadPeople(params: SearchParams) {
  const principal = await operatorPrincipal();
  const input = listInput(peopleQuery, params, PAGE_OF_50);
  return { search: input.search ?? '', ...(await listPeople(principal, input)) };
}

export async function loadPayouts() {
  return listPayouts(await operatorPrincipal('pay'));
}
