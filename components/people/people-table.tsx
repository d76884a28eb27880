'use client';

import { useState, useTransition } from 'react';
import { resetTwoFactorAction } from '@/lib/dashboard/actions/people';
import { messageOf } from '@/lib/dashboard/action-result';
import { Badge } from '@/components/ui/badge';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { type MemberRole, ROLE_LABELS } from '@/lib/access/browser';
import { formatDay } from '@/lib/shared/format';
import { PlainTableHead } from '@/components/ui/plain-table-head';

interface PersonRow {
  id: string;
  name: string;
  email: string;
  twoFactor: boolean;
  lastSignInAt: string | null;
  accounts: { id: string; name: string; role: MemberRole }[];
}

/** People as rows; a second factor can be reset, behind a confirmation that says to check who is asking. */
export function PeopleTable({ people }: { people: PersonRow[] }) {
  const [message, setMessage] = useState('');
  const [pending, startTransition] = useTransition();
  return (
    <>
      <p role="status" className="min-h-5 px-4 pt-3 text-sm text-zinc-700 dark:text-zinc-300">
        {message}
      </p>
      <table className="stack-table w-full text-sm md:min-w-[48rem]">
        <caption className="sr-only">People</caption>
        <PlainTableHead columns={['Person', 'Accounts', 'Two-factor', 'Last sign-in']} actions />
        <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {people.map((p) => (
            <tr key={p.id} data-testid="person-row">
              <td className="px-4 py-3">
                <span className="font-medium">{p.name}</span>
                <br />
                <span className="text-zinc-700 dark:text-zinc-300">{p.email}</span>
              </td>
              <td data-label="Accounts" className="px-4 py-3">
                {p.accounts.length === 0
                  ? 'None'
                  : p.accounts.map((a) => `${a.name} (${ROLE_LABELS[a.role]})`).join(', ')}
              </td>
              <td data-label="Two-factor" className="px-4 py-3">
                {p.twoFactor ? <Badge tone="green">On</Badge> : <Badge tone="gray">Off</Badge>}
              </td>
              <td data-label="Last sign-in" className="px-4 py-3">
                {p.lastSignInAt ? formatDay(p.lastSignInAt.slice(0, 10)) : 'Never'}
              </td>
              <td className="px-4 py-3 text-right">
                {p.twoFactor && (
                  <ConfirmButton
                    label="Reset two-factor"
                    srLabel={`of ${p.email}`}
                    title={`Reset two-factor sign-in of ${p.email}?`}
                    description="Do this only after making sure, by other means than an e-mail to that address, that it is them asking. They will sign in with the password alone and set it up again. The reset is logged."
                    confirm="Reset two-factor"
                    disabled={pending}
                    onConfirm={() =>
                      startTransition(async () => setMessage(messageOf(await resetTwoFactorAction(p.id))))
                    }
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
