'use client';

import { useState, useTransition } from 'react';
import { requireTwoFactorAction } from '@/lib/dashboard/actions/members';
import { announcementOf } from './refusal';
import { useAccount } from '@/components/layout/use-account';
import { Card } from '@/components/ui/card';

/** The Owner's switch that requires two-factor sign-in of every member of the account. */
export function RequireTwoFactor({ required }: { required: boolean }) {
  const account = useAccount();
  const [message, setMessage] = useState('');
  const [pending, startTransition] = useTransition();
  return (
    <Card className="space-y-2 p-4">
      <label className="flex items-start gap-3 text-sm">
        <input
          type="checkbox"
          className="mt-1"
          defaultChecked={required}
          disabled={pending}
          onChange={(event) => {
            const next = event.target.checked;
            startTransition(async () =>
              setMessage(announcementOf(await requireTwoFactorAction(account, next)).message),
            );
          }}
        />
        <span>
          <span className="font-medium">Require two-factor sign-in for every member</span>
          <br />
          <span className="text-zinc-600 dark:text-zinc-400">
            Members without it are led to set it up before they see anything else.
          </span>
        </span>
      </label>
      <p role="status" className="min-h-5 text-sm text-zinc-700 dark:text-zinc-300">
        {message}
      </p>
    </Card>
  );
}
