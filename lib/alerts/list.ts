import { and, asc, eq, inArray, isNull, notInArray, sql, type SQLWrapper } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { alerts } from '@/db/schema-alerts';
import { can, isPublisherAccount, type Principal, requirePublisherAccount, requireWritable } from '@/lib/access';
import { isUuid, selectPage, utcDay, type Paged, type PagedRowsInput } from '@/lib/query';
import { conflict, notFound } from '@/lib/shared/errors';
import { ALERT_KINDS, type AlertKind } from '@/lib/shared/events';
import { alertResponseOf } from './record';
import type { AlertField, AlertResponse } from './schemas';

const a = alerts;

const filterColumns: Record<AlertField, SQLWrapper> = {
  id: a.id,
  kind: a.kind,
  state: a.state,
  day: a.day,
  siteId: a.siteId,
  subjectId: a.subjectId,
  createdAt: utcDay(a.createdAt),
  acknowledgedAt: utcDay(a.acknowledgedAt),
};

/** Alerts about money are for those who read statements; a key's expiry for those who manage keys. */
const KIND_ABILITY = {
  'statement.finalized': 'readStatements',
  'payment.recorded': 'readStatements',
  'key.expiring': 'manageKeys',
} as const satisfies Partial<Record<AlertKind, Parameters<typeof can>[1]>>;

/** The kinds the principal may read (every kind for an API key, which acts as the account). */
export const readableKinds = (principal: Principal): AlertKind[] =>
  ALERT_KINDS.filter(
    (kind) => !(kind in KIND_ABILITY) || can(principal, KIND_ABILITY[kind as keyof typeof KIND_ABILITY]),
  );

/**
 * Which alerts a principal reads: its account's, of the kinds its role reads; a site-scoped key or a Viewer
 * limited to some sites only those about their sites (an account's alert tells about every site).
 */
function scopeOf(principal: Principal) {
  requirePublisherAccount(principal, 'Alerts are a publisher account’s: view a publisher to see theirs.');
  const hidden = ALERT_KINDS.filter((kind) => !readableKinds(principal).includes(kind));
  return and(
    eq(a.accountId, principal.userId),
    hidden.length ? notInArray(a.kind, hidden) : undefined,
    principal.siteScope ? inArray(a.siteId, principal.siteScope) : undefined,
  );
}

/** A page of the account's alerts, newest first unless sorted otherwise; Filter, FilterList and Search as in the reports. */
export async function listAlerts(principal: Principal, input: PagedRowsInput): Promise<Paged<AlertResponse>> {
  const table = {
    table: a,
    scope: scopeOf(principal),
    filterColumns,
    sortColumns: { createdAt: a.createdAt, acknowledgedAt: a.acknowledgedAt },
    searchColumns: [a.kind, a.message],
    newestFirst: 'createdAt' as const,
    id: a.id,
  };
  return selectPage(await getDb(), table, input, alertResponseOf);
}

/**
 * The revenue alerts of a range, for the overview chart's markers: the account's own when the view is the whole
 * account (no sites chosen), else those of the chosen sites; none for the operator's account.
 */
export async function revenueAlertsOf(
  principal: Principal,
  range: { fromDate: string; toDate: string; siteIds: string[] | null },
) {
  // The operator's own overview has no alerts of its own (the account's would be refused).
  if (!isPublisherAccount(principal)) return [];
  const db = await getDb();
  return db
    .select({ day: a.day, kind: a.kind, message: a.message })
    .from(a)
    .where(
      and(
        scopeOf(principal),
        inArray(a.kind, ['revenue.drop', 'revenue.spike']),
        range.siteIds ? inArray(a.siteId, range.siteIds) : principal.siteScope ? undefined : isNull(a.siteId),
        sql`${a.day} between ${range.fromDate}::date and ${range.toDate}::date`,
      ),
    )
    .orderBy(asc(a.day), asc(a.createdAt));
}

/**
 * Acknowledges an open alert the principal may read (anyone of the account who reads it: it says "seen"). An
 * action happens once: an alert acknowledged already is a 409 saying when; one the principal cannot read is a 404.
 */
export async function acknowledgeAlert(principal: Principal, id: string): Promise<AlertResponse> {
  requireWritable(principal);
  // Not a uuid: no alert has it (the database would refuse the comparison).
  if (!isUuid(id)) throw notFound('No alert of this account has that id.');
  const db = await getDb();
  const mine = and(scopeOf(principal), eq(a.id, id));
  const [updated] = await db
    .update(a)
    .set({ state: 'acknowledged', acknowledgedAt: new Date(), acknowledgedBy: principal.personId ?? null })
    .where(and(mine, eq(a.state, 'open')))
    .returning();
  if (updated) return alertResponseOf(updated);
  const [found] = await db.select({ acknowledgedAt: a.acknowledgedAt }).from(a).where(mine);
  if (!found) throw notFound('No alert of this account has that id.');
  throw conflict(`This alert is acknowledged already, since ${found.acknowledgedAt!.toISOString()}.`);
}
