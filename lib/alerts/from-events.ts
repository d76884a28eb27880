import { inArray } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { sites } from '@/db/schema';
import { formatCents, formatDay } from '@/lib/shared/format';
import { type NewAlert, storeAlerts } from './record';

/** An event of the activity log, as far as an alert reads it. */
export interface AlertingEvent {
  kind: string;
  accountId: string | null;
  subjectId?: string | null;
  details?: Record<string, unknown>;
}

const monthWords = (month: string) => formatDay(`${month.slice(0, 7)}-01`, { month: 'long', year: 'numeric' });
const usd = (amount: unknown) => formatCents(Math.round(Number(amount) * 1e6));

/** The alert an event of the log raises for its account, if any: statements, payments, a site's review. */
function alertOf(event: AlertingEvent, siteNames: Map<string, string | null>, at: string): NewAlert | null {
  const { accountId, subjectId = null, details = {} } = event;
  if (!accountId) return null;
  switch (event.kind) {
    case 'statement.finalized': {
      const months = ((details.months as string[] | undefined) ?? []).map(monthWords);
      // A close writes every month not closed yet, in order: a first close names the first and the last.
      const which =
        months.length > 1 ? `statements from ${months[0]} to ${months.at(-1)} are` : `statement for ${months[0]} is`;
      return {
        accountId,
        kind: 'statement.finalized',
        dedupeKey: `statement.finalized:${(details.months as string[]).join(',')}`,
        message: `Your ${which} final: ${usd(details.amountDue)} due.`,
        details,
      };
    }
    case 'payment.recorded':
      return {
        accountId,
        kind: 'payment.recorded',
        dedupeKey: `payment.recorded:${subjectId}`,
        subjectId,
        day: (details.paidOn as string | undefined) ?? null,
        // The event's month is in words already ("October 2026 of Acme Games").
        message: `Payment recorded: ${usd(details.amount)} for ${String(details.month)}, paid on ${formatDay(String(details.paidOn))}.`,
        details,
      };
    case 'site.status_changed': {
      const name = (subjectId && siteNames.get(subjectId)) || 'Your site';
      const reason = details.reason ? `: ${String(details.reason)}` : '';
      return {
        accountId,
        kind: 'site.status_changed',
        dedupeKey: `site.status_changed:${subjectId}:${at}`,
        siteId: subjectId,
        message: `${name} is now ${String(details.to)} (was ${String(details.from)})${reason}.`,
        details,
      };
    }
    default:
      return null;
  }
}

/** Stores the alerts the events raise, in the events' transaction (lib/activity calls it as it records them). */
export async function alertOnEvents(tx: Tx, events: AlertingEvent[]): Promise<void> {
  const siteIds = events.flatMap((e) => (e.kind === 'site.status_changed' && e.subjectId ? [e.subjectId] : []));
  const names = siteIds.length
    ? new Map(
        (await tx.select({ id: sites.id, name: sites.name }).from(sites).where(inArray(sites.id, siteIds))).map(
          (s) => [s.id, s.name] as const,
        ),
      )
    : new Map<string, string | null>();
  const at = new Date().toISOString();
  await storeAlerts(
    tx,
    events.flatMap((event) => alertOf(event, names, at) ?? []),
  );
}
