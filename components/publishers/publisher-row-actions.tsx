'use client';

import * as AlertDialog from '@radix-ui/react-alert-dialog';
import Link from 'next/link';
import { useState, useTransition } from 'react';
import { publisherRowAction } from '@/lib/dashboard/actions/publishers';
import { messageOf, type ActionResult } from '@/lib/dashboard/action-result';
import { Button, buttonClass } from '@/components/ui/button';
import type { PublisherResponse } from '@/lib/accounts';
import { VIEW_AS } from '@/lib/dashboard/url';

type Row = Pick<PublisherResponse, 'id' | 'name' | 'email' | 'status'>;

/** Deactivate, behind a confirmation that names the account and says what happens. */
function DeactivateButton({ publisher, run }: { publisher: Row; run: () => void }) {
  return (
    <AlertDialog.Root>
      <AlertDialog.Trigger asChild>
        <Button variant="dangerGhost">
          Deactivate<span className="sr-only"> {publisher.name}</span>
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-zinc-950/50" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-lg border border-zinc-200 bg-white p-6 shadow-xl dark:border-zinc-700 dark:bg-zinc-900">
          <AlertDialog.Title className="text-lg font-semibold">Deactivate {publisher.name}?</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
            {publisher.email} is signed out everywhere at once and every API key of the account is revoked. Sites and
            revenue stay. You can reactivate the account later, but its keys stay revoked.
          </AlertDialog.Description>
          <div className="mt-6 flex justify-end gap-2">
            <AlertDialog.Cancel className={buttonClass('secondary')}>Cancel</AlertDialog.Cancel>
            <AlertDialog.Action className={buttonClass('danger')} onClick={run}>
              Deactivate account
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

/**
 * A publisher row's actions, by status: resend the invitation (invited), e-mail a password reset link (active;
 * the admin never sees it), deactivate (not yet deactivated),
 * reactivate (deactivated), and view the dashboard. The result is announced in the row's status line.
 */
export function PublisherRowActions({ publisher }: { publisher: Row }) {
  const [pending, startTransition] = useTransition();
  const [result, setResult] = useState<ActionResult<string> | null>(null);
  const run = (what: 'invitation' | 'reset' | 'deactivate' | 'reactivate') => () =>
    startTransition(async () => setResult(await publisherRowAction(what, publisher.id)));
  const who = <span className="sr-only"> {publisher.name}</span>;
  return (
    <div className="space-y-1">
      <div className="inline-flex flex-wrap justify-end gap-1 whitespace-nowrap">
        <Link href={`/?${VIEW_AS}=${publisher.id}`} className={buttonClass('ghost')}>
          View dashboard{who}
        </Link>
        {publisher.status === 'invited' && (
          <Button variant="ghost" disabled={pending} onClick={run('invitation')}>
            Resend invitation{who}
          </Button>
        )}
        {publisher.status === 'active' && (
          <Button variant="ghost" disabled={pending} onClick={run('reset')}>
            Send password reset{who}
          </Button>
        )}
        {publisher.status === 'deactivated' ? (
          <Button variant="ghost" disabled={pending} onClick={run('reactivate')}>
            Reactivate{who}
          </Button>
        ) : (
          <DeactivateButton publisher={publisher} run={run('deactivate')} />
        )}
      </div>
      <p
        role="status"
        className={
          result?.ok === false ? 'text-xs text-red-700 dark:text-red-400' : 'text-xs text-zinc-600 dark:text-zinc-400'
        }
      >
        {result && messageOf(result)}
      </p>
    </div>
  );
}
