import { hash } from '@node-rs/argon2';
import { getDb } from '@/db/client';
import { memberships, people, users } from '@/db/schema';
import { actorOf, recordEvent } from '@/lib/activity';
import { badRequest, conflict, forbidden } from '@/lib/shared/errors';
import { sendInvitation } from './invitations';
import { passwordProblem } from '@/lib/identity';
import type { Principal } from '@/lib/access';
import type { CreatePublisherInput } from './schemas';

/**
 * Creates an admin account, for the operator at the command line (`npm run admin:create`): with the password
 * the operator typed (`active`), or without one (`invited`, with an invitation e-mail queued: the link goes
 * only into the e-mail). An e-mail in use, in any letter case, is a conflict. Says whether an invitation went.
 */
export async function createAdmin(
  principal: Principal,
  input: CreatePublisherInput,
  password: string | null,
): Promise<{ id: string; invited: boolean }> {
  if (principal.via !== 'commandLine') throw forbidden('Admins are created at the command line only.');
  const problem = password === null ? null : passwordProblem(password);
  if (problem) throw badRequest('password', problem);
  const passwordHash = password === null ? null : await hash(password);
  const email = input.email.trim().toLowerCase();
  const db = await getDb();
  return db.transaction(async (tx) => {
    const status = passwordHash ? 'active' : 'invited';
    const [created] = await tx
      .insert(users)
      .values({ email, name: input.name, role: 'admin', status })
      .onConflictDoNothing({ target: users.email })
      .returning({ id: users.id });
    if (!created) throw conflict(`${email} is already the e-mail of an account.`);
    if (passwordHash) {
      // The admin signs in at once: the account's first person, with the same id, as migration 0009 made them.
      const [person] = await tx
        .insert(people)
        .values({ id: created.id, email, name: input.name, passwordHash })
        .onConflictDoNothing({ target: people.email })
        .returning({ id: people.id });
      if (!person) throw conflict(`${email} already signs in here.`);
      await tx.insert(memberships).values({ accountId: created.id, personId: person.id, role: 'owner' });
    }
    // An admin owns no publisher account: the event names the person as its subject only.
    await recordEvent(tx, actorOf(principal), {
      kind: 'account.created',
      accountId: null,
      subjectId: created.id,
      details: { email, name: input.name, role: 'admin' },
    });
    if (passwordHash) return { id: created.id, invited: false };
    const account = { id: created.id, name: input.name, role: 'admin' as const };
    await sendInvitation(tx, principal, { account, email, role: 'owner' });
    return { id: created.id, invited: true };
  });
}
