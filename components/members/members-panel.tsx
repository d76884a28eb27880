'use client';

import { useState, useTransition } from 'react';
import { inviteMemberAction, memberAction } from '@/lib/dashboard/actions/members';
import { announcementOf, refusalOf } from './refusal';
import { useAccount } from '@/components/layout/use-account';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { Field } from '@/components/ui/field';
import { keepingFields } from '@/components/ui/submit';
import {
  grants,
  MEMBER_ROLES,
  type MemberRole,
  OPERATOR_POWER_LABELS,
  operatorPowersOf,
  ROLE_LABELS,
} from '@/lib/access/browser';
import { formatDay } from '@/lib/shared/format';
import { RolePicker } from './role-picker';
import { PlainTableHead } from '@/components/ui/plain-table-head';

interface MemberRow {
  personId: string;
  name: string;
  email: string;
  role: MemberRole;
  siteIds: string[] | null;
  joinedAt: string;
  lastSignInAt: string | null;
  twoFactor: boolean;
}

interface InvitationRow {
  id: string;
  email: string;
  role: MemberRole;
  siteIds: string[] | null;
  invitedBy: string | null;
  expiresAt: string;
}

interface Props {
  members: MemberRow[];
  invitations: InvitationRow[];
  sites: { id: string; name: string }[];
  myRole: MemberRole;
  myId: string;
  /** This is the operator's account: the invitation says which platform powers each role carries. */
  operatorAccount?: boolean;
}

const ROLE_HELP: Record<MemberRole, string> = {
  owner: 'Everything, including members and the account’s settings.',
  admin: 'API keys, sites and members other than Owners.',
  finance: 'Every report and download, and statements; no API keys.',
  viewer: 'Reports and downloads, of every site or only the ones you choose.',
};

/** In the operator's account a role also carries platform powers (lib/access/roles.ts), or none. */
function operatorHelp(role: MemberRole): string {
  const powers = operatorPowersOf(role).map((power) => OPERATOR_POWER_LABELS[power]);
  return powers.length ? `On the platform: ${powers.join('; ')}.` : 'No platform power: this account only.';
}

type Announcement = ReturnType<typeof announcementOf>;

const day = (iso: string | null) => (iso ? formatDay(iso.slice(0, 10)) : 'Never');

/** The account's people: invite someone, change a role, remove a member, and the invitations still open. */
export function MembersPanel({ members, invitations, sites, myRole, myId, operatorAccount = false }: Props) {
  const account = useAccount();
  const [result, setResult] = useState<Announcement | null>(null);
  const [pending, startTransition] = useTransition();
  // Owners alone make or touch Owners (lib/access/roles.ts).
  const assignable = MEMBER_ROLES.filter((r) => r !== 'owner' || grants(myRole, 'manageOwners'));
  const run = (request: Parameters<typeof memberAction>[1]) =>
    startTransition(async () => setResult(announcementOf(await memberAction(account, request))));
  const siteNames = new Map(sites.map((s) => [s.id, s.name]));
  const scope = (ids: string[] | null) => (ids?.length ? ids.map((id) => siteNames.get(id) ?? id).join(', ') : null);

  return (
    <>
      <InviteForm sites={sites} roles={assignable} onResult={setResult} operatorAccount={operatorAccount} />
      <p role="status" aria-live="polite" className="min-h-5 text-sm">
        {result && (
          <span className={result.ok ? 'text-emerald-700 dark:text-emerald-400' : 'text-red-700 dark:text-red-400'}>
            {result.message}
          </span>
        )}
      </p>

      <Card className="relative md:overflow-x-auto" tabIndex={0} role="region" aria-label="Members">
        <table className="stack-table w-full text-sm md:min-w-[48rem]">
          <caption className="sr-only">Members of the account</caption>
          <PlainTableHead columns={['Member', 'Role', 'Two-factor', 'Last sign-in', 'Joined']} actions />
          <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
            {members.map((m) => {
              const mine = m.personId === myId;
              const editable = !mine && (m.role !== 'owner' || grants(myRole, 'manageOwners'));
              return (
                <tr key={m.personId} data-testid="member-row">
                  <td className="px-4 py-3">
                    <span className="font-medium text-zinc-900 dark:text-zinc-100">{m.name}</span>
                    {mine && <span className="text-zinc-600 dark:text-zinc-400"> (you)</span>}
                    <br />
                    <span className="text-zinc-700 dark:text-zinc-300">{m.email}</span>
                  </td>
                  <td data-label="Role" className="px-4 py-3">
                    {editable ? (
                      <RolePicker
                        label={`Role of ${m.name}`}
                        roles={assignable}
                        role={m.role}
                        siteIds={m.siteIds}
                        disabled={pending}
                        onChange={(role, siteIds) => run({ what: 'role', id: m.personId, role, siteIds })}
                      />
                    ) : (
                      ROLE_LABELS[m.role]
                    )}
                    {m.role === 'viewer' && scope(m.siteIds) && (
                      <p className="text-xs text-zinc-600 dark:text-zinc-400">Only {scope(m.siteIds)}</p>
                    )}
                  </td>
                  <td data-label="Two-factor" className="px-4 py-3">
                    {m.twoFactor ? <Badge tone="green">On</Badge> : <Badge tone="gray">Off</Badge>}
                  </td>
                  <td data-label="Last sign-in" className="px-4 py-3">
                    {day(m.lastSignInAt)}
                  </td>
                  <td data-label="Joined" className="px-4 py-3">
                    {day(m.joinedAt)}
                  </td>
                  <td className="px-4 py-3 text-right">
                    {editable && (
                      <ConfirmButton
                        label="Remove"
                        srLabel={m.name}
                        title={`Remove ${m.name}?`}
                        description={`${m.email} stops seeing this account at once. API keys they created keep working until you revoke them.`}
                        confirm="Remove member"
                        disabled={pending}
                        onConfirm={() => run({ what: 'remove', id: m.personId })}
                      />
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </Card>

      {invitations.length > 0 && (
        <Card className="p-4">
          <h2 className="mb-3 text-sm font-semibold">Open invitations</h2>
          <ul className="divide-y divide-zinc-200 text-sm dark:divide-zinc-800">
            {invitations.map((i) => (
              <li key={i.id} data-testid="invitation-row" className="flex flex-wrap items-center gap-3 py-2">
                <span className="min-w-0 grow">
                  <span className="font-medium">{i.email}</span> · {ROLE_LABELS[i.role]}
                  {scope(i.siteIds) && <> · only {scope(i.siteIds)}</>}
                  <br />
                  <span className="text-xs text-zinc-600 dark:text-zinc-400">
                    {new Date(i.expiresAt) < new Date() ? 'Expired' : `Valid until ${day(i.expiresAt)}`}
                    {i.invitedBy && ` · invited by ${i.invitedBy}`}
                  </span>
                </span>
                {(i.role !== 'owner' || grants(myRole, 'manageOwners')) && (
                  <>
                    <Button variant="ghost" disabled={pending} onClick={() => run({ what: 'resend', id: i.id })}>
                      Resend<span className="sr-only"> to {i.email}</span>
                    </Button>
                    <ConfirmButton
                      label="Revoke"
                      srLabel={`the invitation of ${i.email}`}
                      title={`Revoke the invitation of ${i.email}?`}
                      description="Its link stops working at once. You can invite them again later."
                      confirm="Revoke invitation"
                      disabled={pending}
                      onConfirm={() => run({ what: 'revoke', id: i.id })}
                    />
                  </>
                )}
              </li>
            ))}
          </ul>
        </Card>
      )}
    </>
  );
}

/** Invite by e-mail with a role; a Viewer may be limited to some sites. */
function InviteForm({
  sites,
  roles,
  onResult,
  operatorAccount,
}: {
  sites: { id: string; name: string }[];
  roles: MemberRole[];
  onResult: (result: Announcement) => void;
  operatorAccount: boolean;
}) {
  const account = useAccount();
  const [error, setError] = useState<string | null>(null);
  const [role, setRole] = useState<MemberRole>('viewer');
  const [siteIds, setSiteIds] = useState<string[] | null>(null);
  const [pending, startTransition] = useTransition();
  const submit = keepingFields((form) =>
    startTransition(async () => {
      const email = String(form.get('email') ?? '');
      const result = await inviteMemberAction(account, { email, role, siteIds: siteIds ?? [] });
      const refusal = result.ok ? null : refusalOf(result.error);
      setError(refusal?.field === 'email' ? refusal.message : null);
      onResult(announcementOf(result));
    }),
  );
  return (
    <Card className="p-4">
      <h2 className="mb-3 text-sm font-semibold">Invite someone</h2>
      <form onSubmit={submit} noValidate className="grid gap-4 md:grid-cols-[1fr_auto_auto] md:items-start">
        <Field
          label="E-mail"
          id="invite-email"
          name="email"
          type="email"
          autoComplete="off"
          required
          error={error ?? undefined}
        />
        <div className="space-y-1.5">
          <span className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">Role</span>
          <RolePicker
            label="Role of the new member"
            roles={roles}
            sites={sites}
            role={role}
            siteIds={siteIds}
            onChange={(r, ids) => {
              setRole(r);
              setSiteIds(ids.length ? ids : null);
            }}
          />
          <p className="max-w-xs text-xs text-zinc-600 dark:text-zinc-400">
            {operatorAccount ? operatorHelp(role) : ROLE_HELP[role]}
          </p>
        </div>
        <Button type="submit" disabled={pending} className="md:mt-6">
          {pending ? 'Inviting…' : 'Send invitation'}
        </Button>
      </form>
    </Card>
  );
}
