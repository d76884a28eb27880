import { eq, getTableName, sql, type Column } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { preparedPerDatabase } from '@/db/prepared';
import { sites, users } from '@/db/schema';
import { AppError, forbidden } from '@/lib/shared/errors';
import type { DataVersion } from './data-version';
import type { Principal } from './principal';

export interface ReadableSites {
  /** The sites this principal may read and asked for, in a stable order; may be empty. */
  siteIds: string[];
  /** True when siteIds are every site of the account, so account-wide rollups can answer. */
  allSites: boolean;
  /** The account's sites that are not in siteIds (a report may subtract them from the account's sums). */
  otherSiteIds: string[];
  defaultRangeDays: number;
  /** The account's data version as this read found it (the report cache's key: lib/reports/result-cache.ts). */
  dataVersion: DataVersion;
}

/**
 * The one place that decides which sites a request may read: the account's sites, narrowed to the key's
 * allow-list, narrowed to what was asked for. Asking for any site outside that set is a 403 that does not
 * say whether the site exists elsewhere.
 */
export async function readableSites(principal: Principal, requested: string[] | null): Promise<ReadableSites> {
  const account = await accountSitesOf(principal);
  // Only a race: the account went between the credential's check and this query. It answers what the
  // credential answers from then on (its keys and sessions go with the account).
  if (!account) throw new AppError('unauthorized', 'The account of this credential no longer exists.');

  const accountSiteIds = account.siteIds === '' ? [] : account.siteIds.split(',');
  const scope = principal.siteScope ? new Set(principal.siteScope) : null;
  const allowed = scope ? accountSiteIds.filter((id) => scope.has(id)) : accountSiteIds;
  let siteIds = allowed;
  if (requested) {
    const allowedSet = new Set(allowed);
    const denied = requested.filter((id) => !allowedSet.has(id));
    if (denied.length > 0) {
      throw forbidden(
        `siteIds: ${principal.siteScope && principal.via === 'apiKey' ? 'this API key is' : 'you are'} not allowed to read ` +
          `${denied.length === 1 ? 'site' : 'sites'} ${denied.join(', ')}.`,
      );
    }
    siteIds = allowed.filter((id) => requested.includes(id));
  }
  const chosen = new Set(siteIds);
  const otherSiteIds = accountSiteIds.filter((id) => !chosen.has(id));
  const { defaultRangeDays, version, changedAt } = account;
  return {
    siteIds,
    allSites: otherSiteIds.length === 0,
    otherSiteIds,
    defaultRangeDays,
    dataVersion: { version, changedAt },
  };
}

/**
 * Account-wide operations (the rows and their export, key management) are closed to site-scoped keys, and
 * likewise to a Viewer limited to some sites.
 */
export function requireAccountLevel(principal: Principal, operation: string): void {
  if (!principal.siteScope) return;
  throw forbidden(
    principal.via === 'apiKey'
      ? `${operation} needs an account-level API key; this key is restricted to specific sites.`
      : `${operation} needs access to the whole account; you may read only some of its sites.`,
  );
}

/** Writes (keys, imports) refuse a principal an admin only views a publisher's dashboard with. */
export function requireWritable(principal: Principal): void {
  if (principal.viewedBy)
    throw forbidden('This is a read-only view of a publisher’s dashboard; nothing can be changed.');
}

/** A column with its table's name: drizzle leaves it out in a query of one table, where a subquery needs it. */
const of = (column: Column) => sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;

/**
 * What readableSites needs of the account, as columns of its `users` row: one row with the site ids as one text
 * (uuids hold no comma). A row per site through drizzle's row mapping cost more than the query (100 sites: ~0.3 ms
 * of CPU a request). An API key's lookup selects these too, in its own round trip (lib/keys/authenticate.ts).
 */
export const accountSitesColumns = {
  defaultRangeDays: users.defaultRangeDays,
  version: users.dataVersion,
  changedAt: users.dataChangedAt,
  siteIds: sql<string>`(select coalesce(string_agg(${of(sites.id)}::text, ',' order by ${of(sites.createdAt)}, ${of(sites.id)}), '')
    from ${sites} where ${of(sites.userId)} = ${of(users.id)})`,
};

/** Read by every dashboard page and every report outside an API request (db/prepared.ts). */
const accountSites = preparedPerDatabase((db) =>
  db
    .select(accountSitesColumns)
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('account_sites'),
);

async function readAccountSites(userId: string) {
  const [account] = await accountSites(await getDb()).execute({ userId });
  return account;
}

export type AccountSites = Awaited<ReturnType<typeof readAccountSites>>;

/**
 * The principal for one request only (a dashboard page's render, an API key's request): its reports read the
 * account's sites and data version once (or never, when the key's lookup brought them), so they all see the
 * same version, and the overview makes one query for it instead of eight. Any other principal reads afresh, so
 * a write is seen by the next call.
 */
export function forOneRequest(principal: Principal, account?: AccountSites): Principal {
  return { ...principal, oneRequest: new Map(account ? [[principal.userId, Promise.resolve(account)]] : []) };
}

function accountSitesOf(principal: Principal): Promise<AccountSites> {
  const memo = principal.oneRequest;
  if (!memo) return readAccountSites(principal.userId);
  let found = memo.get(principal.userId);
  if (!found) memo.set(principal.userId, (found = readAccountSites(principal.userId)));
  return found;
}
