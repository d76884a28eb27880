'use client';

import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useContext, useState, useTransition } from 'react';
import { revokeKeyAction } from '@/lib/dashboard/actions/keys';
import { messageOf } from '@/lib/dashboard/action-result';
import { Button, buttonClass } from '@/components/ui/button';
import { AnnounceContext } from './key-actions';
import { useAccount } from '@/components/layout/use-account';

/** Revoke with a confirmation that names the key; the result is announced to screen readers. */
export function RevokeKeyButton({
  keyId,
  label,
  prefix,
}: {
  keyId: string;
  label: string | null;
  prefix: string | null;
}) {
  const account = useAccount();
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState('');
  // The table's status line outlives this row; this one is for a row that stays.
  const announce = useContext(AnnounceContext) ?? setMessage;
  const name = label ? `“${label}”` : 'this key';
  return (
    <>
      <AlertDialog.Root>
        <AlertDialog.Trigger asChild>
          <Button variant="dangerGhost" disabled={pending}>
            Revoke<span className="sr-only"> {label ?? prefix}</span>
          </Button>
        </AlertDialog.Trigger>
        <AlertDialog.Portal>
          <AlertDialog.Overlay className="fixed inset-0 z-40 bg-zinc-950/50" />
          <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-lg border border-zinc-200 bg-white p-6 shadow-xl dark:border-zinc-700 dark:bg-zinc-900">
            <AlertDialog.Title className="text-lg font-semibold">Revoke {name}?</AlertDialog.Title>
            <AlertDialog.Description className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
              The key <code className="font-mono">{prefix}…</code> stops working immediately. Scripts and tools using it
              will get 401 errors. This cannot be undone.
            </AlertDialog.Description>
            <div className="mt-6 flex justify-end gap-2">
              <AlertDialog.Cancel className={buttonClass('secondary')}>Cancel</AlertDialog.Cancel>
              <AlertDialog.Action
                className={buttonClass('danger')}
                onClick={() =>
                  startTransition(async () => {
                    announce(messageOf(await revokeKeyAction(account, keyId)));
                  })
                }
              >
                Revoke key
              </AlertDialog.Action>
            </div>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>
      <span role="status" className="sr-only">
        {message}
      </span>
    </>
  );
}
