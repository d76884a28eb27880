'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { leaveAccountAction } from '@/lib/dashboard/actions/members';
import { refusalOf } from './refusal';
import { useAccount } from '@/components/layout/use-account';
import { ConfirmButton } from '@/components/ui/confirm-button';

/** "Leave this account", confirmed; afterwards the person lands on their next account (or is signed out). */
export function LeaveAccountButton({ accountName }: { accountName: string }) {
  const account = useAccount();
  const router = useRouter();
  const [message, setMessage] = useState('');
  const [pending, startTransition] = useTransition();
  return (
    <div className="flex flex-col items-end gap-2">
      <ConfirmButton
        label="Leave this account"
        title={`Leave ${accountName}?`}
        description="You will no longer see its reports. To come back, an Owner or Admin must invite you again."
        confirm="Leave account"
        disabled={pending}
        onConfirm={() =>
          startTransition(async () => {
            const result = await leaveAccountAction(account);
            if (result.ok) router.push('/');
            else setMessage(refusalOf(result.error).message);
          })
        }
      />
      <p role="status" className="text-sm text-red-700 dark:text-red-400">
        {message}
      </p>
    </div>
  );
}
