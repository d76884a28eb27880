import { and, desc, eq } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { mailOutbox } from '@/db/schema';

/** The token in an invitation link of a message's text. */
const invitationTokenIn = (text: string) => /\/invitation\/([A-Za-z0-9_-]{20,})/.exec(text)![1];

/**
 * The link token of the newest invitation e-mailed to `email`, read from the outbox before the sender runs:
 * the link travels by e-mail only, so this is how a test (like the invitee) gets it.
 */
export async function invitationTokenFor(email: string): Promise<string> {
  const db = await getDb();
  const [mail] = await db
    .select({ text: mailOutbox.text })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.recipient, email.toLowerCase()), eq(mailOutbox.kind, 'invitation')))
    .orderBy(desc(mailOutbox.createdAt))
    .limit(1);
  if (!mail) throw new Error(`no invitation was queued for ${email}`);
  return invitationTokenIn(mail.text);
}
