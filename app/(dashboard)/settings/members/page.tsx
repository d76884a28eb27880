import type { Metadata } from 'next';
import { LeaveAccountButton } from '@/components/members/leave-account-button';
import { MembersPanel } from '@/components/members/members-panel';
import { RequireTwoFactor } from '@/components/members/require-two-factor';
import { Card } from '@/components/ui/card';
import { can, isOperatorAccount } from '@/lib/access';
import { listMembers } from '@/lib/accounts';
import { listSites } from '@/lib/sites';
import { requirePerson } from '@/lib/dashboard/session';
import type { SearchParams } from '@/lib/dashboard/url';
import { viewerOf } from '@/lib/dashboard/viewer';

export const metadata: Metadata = { title: 'Members · Settings · Publisher Portal' };

/** The people of the account the URL names: Owners and Admins invite and manage them; anyone may leave. */
export default async function MembersPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requirePerson();
  const viewer = await viewerOf(user, await searchParams, { ownIsEnough: true });
  const principal = viewer.kind === 'ready' ? viewer.principal : null;
  // Only a member sees the account's people: an operator viewing a publisher read-only does not.
  if (!principal?.memberRole || principal.viewedBy) {
    return <Notice>Members are shown to the account’s own Owners and Admins.</Notice>;
  }
  const leave = (
    <LeaveAccountButton
      accountName={user.memberships.find((m) => m.accountId === principal.userId)?.accountName ?? ''}
    />
  );
  if (!can(principal, 'manageMembers')) {
    return (
      <Notice action={leave}>
        The account’s Owners and Admins invite and manage its members; ask one of them for a change.
      </Notice>
    );
  }
  const [{ members, invitations }, sites] = await Promise.all([listMembers(principal), listSites(principal)]);
  return (
    <div className="space-y-6">
      <MembersPanel
        members={members.map((m) => ({
          ...m,
          joinedAt: m.joinedAt.toISOString(),
          lastSignInAt: m.lastSignInAt?.toISOString() ?? null,
        }))}
        invitations={invitations.map((i) => ({ ...i, expiresAt: i.expiresAt.toISOString() }))}
        sites={sites.map((s) => ({ id: s.siteId, name: s.name ?? s.siteId }))}
        myRole={principal.memberRole}
        myId={principal.personId ?? ''}
        operatorAccount={isOperatorAccount(principal)}
      />
      {can(principal, 'manageOwners') && (
        <RequireTwoFactor
          required={user.memberships.some((m) => m.accountId === principal.userId && m.requiresTwoFactor)}
        />
      )}
      <div className="flex justify-end">{leave}</div>
    </div>
  );
}

function Notice({ children, action }: { children: React.ReactNode; action?: React.ReactNode }) {
  return (
    <Card className="flex flex-wrap items-center justify-between gap-4 p-6 text-sm text-zinc-700 dark:text-zinc-300">
      <p>{children}</p>
      {action}
    </Card>
  );
}
