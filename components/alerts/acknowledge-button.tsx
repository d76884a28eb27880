'use client';

import { useState, useTransition } from 'react';
import { useAccount } from '@/components/layout/use-account';
import { Button } from '@/components/ui/button';
import { messageOf } from '@/lib/dashboard/action-result';
import { acknowledgeAlertAction } from '@/lib/dashboard/actions/alerts';

/** "Acknowledge": marks the alert as seen for everyone of the account; the result is announced. */
export function AcknowledgeButton({ alertId, what }: { alertId: string; what: string }) {
  const account = useAccount();
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState('');
  return (
    <>
      <Button
        variant="secondary"
        disabled={pending}
        onClick={() =>
          startTransition(async () => {
            setMessage(messageOf(await acknowledgeAlertAction(account, alertId)));
          })
        }
      >
        {pending ? 'Acknowledging…' : 'Acknowledge'}
        <span className="sr-only"> {what}</span>
      </Button>
      <span role="status" className="sr-only">
        {message}
      </span>
    </>
  );
}
