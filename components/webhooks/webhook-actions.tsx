'use client';

import { useState, useTransition } from 'react';
import { useAccount } from '@/components/layout/use-account';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { messageOf } from '@/lib/dashboard/action-result';
import { removeWebhookAction, testWebhookAction } from '@/lib/dashboard/actions/webhooks';

/** A webhook's "Send test event" and "Remove" (after a confirmation naming it); results are announced. */
export function WebhookActions({ id, url, disabled }: { id: string; url: string; disabled: boolean }) {
  const account = useAccount();
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState('');
  const run = (action: () => ReturnType<typeof testWebhookAction>) =>
    startTransition(async () => setMessage(messageOf(await action())));
  return (
    <div className="flex flex-wrap items-center gap-2">
      {!disabled && (
        <Button variant="secondary" disabled={pending} onClick={() => run(() => testWebhookAction(account, id))}>
          Send test event<span className="sr-only"> to {url}</span>
        </Button>
      )}
      <ConfirmButton
        label="Remove"
        srLabel={url}
        title="Remove this webhook?"
        description={`Events stop going to ${url} at once; those not delivered yet are dropped. This cannot be undone.`}
        confirm="Remove webhook"
        disabled={pending}
        onConfirm={() => run(() => removeWebhookAction(account, id))}
      />
      <span role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
        {message}
      </span>
    </div>
  );
}
