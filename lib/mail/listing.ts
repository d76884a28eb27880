import { and, desc, isNotNull, isNull, or, asc } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { mailOutbox } from '@/db/schema';

export interface OutboxEntry {
  id: string;
  kind: string;
  to: string;
  subject: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  nextAttemptAt: Date;
  sentAt: Date | null;
  secret: boolean;
  /** The plain-text part, links included; empty once a secret message was sent. */
  text: string;
}

/**
 * The outbox as the operator's command line shows it (`npm run mail -- outbox`): every message still to send,
 * oldest first, then the `recent` last ones sent or given up on, newest first. It is for the operator's own
 * machine only: no page or endpoint shows a message's body.
 */
export async function listOutbox(recent = 10): Promise<{ pending: OutboxEntry[]; done: OutboxEntry[] }> {
  const db = await getDb();
  const pendingRows = await db
    .select()
    .from(mailOutbox)
    .where(and(isNull(mailOutbox.sentAt), isNull(mailOutbox.failedAt)))
    .orderBy(asc(mailOutbox.createdAt), asc(mailOutbox.id));
  const doneRows = await db
    .select()
    .from(mailOutbox)
    .where(or(isNotNull(mailOutbox.sentAt), isNotNull(mailOutbox.failedAt)))
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(recent);
  const entry = (row: typeof mailOutbox.$inferSelect): OutboxEntry => ({
    id: row.id,
    kind: row.kind,
    to: row.recipient,
    subject: row.subject,
    status: row.sentAt ? 'sent' : row.failedAt ? 'failed' : 'pending',
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: row.createdAt,
    nextAttemptAt: row.nextAttemptAt,
    sentAt: row.sentAt,
    secret: row.secret,
    text: row.text,
  });
  return { pending: pendingRows.map(entry), done: doneRows.map(entry) };
}
