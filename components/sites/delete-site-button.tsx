'use client';

import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useState, useTransition } from 'react';
import { deleteSiteAction } from '@/lib/dashboard/actions/sites';
import { announcementOf } from './site-messages';
import { Button, buttonClass } from '@/components/ui/button';
import { useAnnounce } from './announcer';
import { useAccount } from '@/components/layout/use-account';

/** Delete with a confirmation that names the site; the result (or why not) is announced. */
export function DeleteSiteButton({ siteId, name }: { siteId: string; name: string }) {
  const account = useAccount();
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState('');
  const announce = useAnnounce(setMessage);
  return (
    <>
      <AlertDialog.Root>
        <AlertDialog.Trigger asChild>
          <Button variant="dangerGhost" disabled={pending}>
            Delete<span className="sr-only"> {name}</span>
          </Button>
        </AlertDialog.Trigger>
        <AlertDialog.Portal>
          <AlertDialog.Overlay className="fixed inset-0 z-40 bg-zinc-950/50" />
          <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-lg border border-zinc-200 bg-white p-6 shadow-xl dark:border-zinc-700 dark:bg-zinc-900">
            <AlertDialog.Title className="text-lg font-semibold">Delete “{name}”?</AlertDialog.Title>
            <AlertDialog.Description className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
              The site has no revenue, so nothing else goes with it. Its history stays in the activity log. This cannot
              be undone.
            </AlertDialog.Description>
            <div className="mt-6 flex justify-end gap-2">
              <AlertDialog.Cancel className={buttonClass('secondary')}>Cancel</AlertDialog.Cancel>
              <AlertDialog.Action
                className={buttonClass('danger')}
                onClick={() =>
                  startTransition(async () => {
                    const result = await deleteSiteAction(account, siteId, name);
                    announce(announcementOf(result));
                  })
                }
              >
                Delete site
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
