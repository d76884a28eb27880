import type { Tx } from '@/db/client';
import { and, eq, gt } from 'drizzle-orm';
import { apiKeys, auditEvents, people } from '@/db/schema';
import { actorKindOf, type Principal } from '@/lib/access';

/**
 * The kinds of event the activity log holds, each written once here. A kind names what happened, in the past
 * tense, under its domain: `<domain>.<what>`.
 */
export const ACTIVITY_KINDS = [
  'sign_in.succeeded',
  'sign_in.failed',
  'password.changed',
  'password.reset_requested',
  'password.reset',
  'account.created',
  'invitation.sent',
  'invitation.accepted',
  'invitation.revoked',
  'member.role_changed',
  'member.removed',
  'member.left',
  'account.two_factor_required',
  'two_factor.enabled',
  'two_factor.disabled',
  'two_factor.reset',
  'two_factor.recovery_code_used',
  'session.ended',
  'account.deactivated',
  'account.reactivated',
  'site.created',
  'site.updated',
  'site.status_changed',
  'site.deleted',
  'key.created',
  'key.rotated',
  'key.revoked',
  'admin.viewed_as',
  'revenue.ingested',
  'statement.finalized',
  'payment.recorded',
  'webhook.created',
  'webhook.deleted',
  'webhook.disabled',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export interface ActivityInput {
  kind: ActivityKind;
  /** The publisher account the event concerns; null when none (an admin's own sign-in). */
  accountId: string | null;
  /** What it is about: a site, a key, a person. */
  subjectId?: string | null;
  details?: Record<string, unknown>;
}

/** Who acted, as the log records it: the principal's door decides the kind. */
export interface Actor {
  kind: 'user' | 'key' | 'admin' | 'system';
  id: string | null;
  /** An e-mail or a key's prefix, as it was when the event happened. */
  label: string | null;
  clientAddress: string | null;
}

/**
 * The actor of a principal: a key, an admin (also when viewing as a publisher), a member of a publisher
 * account, the CLI. A person is named by their person id (which a migrated account's first person shares).
 */
export function actorOf(principal: Principal, label: string | null = null): Actor {
  const clientAddress = principal.clientAddress ?? null;
  if (principal.via === 'commandLine') return { kind: 'system', id: null, label: 'command line', clientAddress };
  if (principal.via === 'apiKey') return { kind: 'key', id: principal.keyId ?? null, label, clientAddress };
  if (principal.viewedBy) return { kind: 'admin', id: principal.viewedBy, label, clientAddress };
  const id = principal.personId ?? principal.userId;
  // A label, not a power: which account's person acted; what they were allowed to do was checked before.
  return { kind: actorKindOf(principal), id, label, clientAddress };
}

/**
 * Appends one event, in the caller's transaction (`tx`), so that the event is written exactly when what it
 * records is. The table refuses UPDATE and DELETE (migration 0007): there is no other writer.
 */
export async function recordEvent(tx: Tx, actor: Actor, event: ActivityInput): Promise<void> {
  await recordEvents(tx, actor, [event]);
}

/** Appends events of one actor in one statement (a month's close writes one per account), in `tx`. */
export async function recordEvents(tx: Tx, actor: Actor, events: ActivityInput[]): Promise<void> {
  if (events.length === 0) return;
  const actorLabel = actor.label ?? (await labelOf(tx, actor));
  await tx.insert(auditEvents).values(
    events.map((event) => ({
      kind: event.kind,
      actorKind: actor.kind,
      actorId: actor.id,
      actorLabel,
      accountId: event.accountId,
      subjectId: event.subjectId ?? null,
      clientAddress: actor.clientAddress,
      details: event.details ?? {},
    })),
  );
}

/** Who the actor was, in words that outlive it: a person's e-mail, a key's prefix (never more of the key). */
async function labelOf(tx: Tx, actor: Actor): Promise<string | null> {
  if (!actor.id) return null;
  if (actor.kind === 'key') {
    const [key] = await tx.select({ prefix: apiKeys.keyPrefix }).from(apiKeys).where(eq(apiKeys.id, actor.id));
    return key ? `${key.prefix}…` : null;
  }
  const [person] = await tx.select({ email: people.email }).from(people).where(eq(people.id, actor.id));
  return person?.email ?? null;
}

/**
 * Appends an event unless the same actor recorded the same kind about the same subject within `withinMs`: for
 * what repeats on every page (an admin viewing as a publisher), one event per sitting rather than one per click.
 */
export async function recordEventUnlessRecent(
  tx: Tx,
  actor: Actor,
  event: ActivityInput,
  withinMs: number,
): Promise<void> {
  if (!event.subjectId || !actor.id) return recordEvent(tx, actor, event);
  const [recent] = await tx
    .select({ id: auditEvents.id })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.subjectId, event.subjectId),
        eq(auditEvents.kind, event.kind),
        eq(auditEvents.actorId, actor.id),
        gt(auditEvents.at, new Date(Date.now() - withinMs)),
      ),
    )
    .limit(1);
  if (!recent) await recordEvent(tx, actor, event);
}
