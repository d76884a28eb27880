'use client';

import { useId, useState, useTransition } from 'react';
import { useAnnounce } from './announcer';
import { reviewSiteAction } from '@/lib/dashboard/actions/sites';
import type { ActionResult } from '@/lib/dashboard/action-result';
import { announcementOf, siteErrorsOf } from './site-messages';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { inputClass } from '@/components/ui/field';
import { keepingFields } from '@/components/ui/submit';

/** A move's button, by where it leads and from where (which moves are open is the services' to say). */
const labelOf = (from: string, to: string) =>
  to === 'live' ? 'Go live' : to === 'approved' ? (from === 'live' ? 'Back to approved' : 'Approve') : to;

/** A site's review actions in the queue: its next moves (`moves`, besides pending) and "Send back" with a reason. */
export function ReviewActions({
  siteId,
  name,
  status,
  moves,
}: {
  siteId: string;
  name: string;
  status: string;
  moves: readonly string[];
}) {
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState('');
  const [open, setOpen] = useState(false);
  const [result, setResult] = useState<ActionResult<string> | null>(null);
  const id = useId();
  const announce = useAnnounce(setMessage);
  const say = (answer: ActionResult<string>) => announce(announcementOf(answer));

  const sendBack = (form: FormData) =>
    startTransition(async () => {
      const answer = await reviewSiteAction(siteId, {
        status: 'pending',
        statusReason: String(form.get('statusReason') ?? ''),
      });
      setResult(answer);
      if (answer.ok) {
        say(answer);
        setOpen(false);
      }
    });
  const reasonError = siteErrorsOf(result).statusReason ?? siteErrorsOf(result).form;

  return (
    <div className="flex flex-wrap justify-end gap-1">
      {moves.map((to) => (
        <Button
          key={to}
          variant="secondary"
          disabled={pending}
          onClick={() => startTransition(async () => say(await reviewSiteAction(siteId, { status: to })))}
        >
          {labelOf(status, to)}
          <span className="sr-only"> {name}</span>
        </Button>
      ))}
      <Dialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (next) setResult(null);
        }}
      >
        <DialogTrigger asChild>
          <Button variant="ghost" disabled={pending}>
            Send back<span className="sr-only"> {name}</span>
          </Button>
        </DialogTrigger>
        <DialogContent
          title={`Send ${name} back`}
          description="The site becomes pending. The publisher sees your reason on their Sites page until the site moves on."
        >
          <form onSubmit={keepingFields(sendBack)} className="space-y-4" noValidate>
            <div className="space-y-1.5">
              <label htmlFor={`${id}-reason`} className="block text-sm font-medium">
                Reason
              </label>
              <textarea
                id={`${id}-reason`}
                name="statusReason"
                required
                maxLength={500}
                rows={3}
                className={inputClass}
                aria-invalid={!!reasonError}
                aria-describedby={`${id}-reason-hint`}
              />
              <p id={`${id}-reason-hint`} className="text-xs text-zinc-600 dark:text-zinc-400">
                {reasonError ?? 'What the publisher must fix, in a sentence or two (at most 500 characters).'}
              </p>
            </div>
            <div className="flex justify-end gap-2">
              <DialogClose asChild>
                <Button variant="secondary">Cancel</Button>
              </DialogClose>
              <Button type="submit" disabled={pending}>
                {pending ? 'Sending back…' : 'Send back'}
              </Button>
            </div>
          </form>
        </DialogContent>
      </Dialog>
      <span role="status" className="sr-only">
        {message}
      </span>
    </div>
  );
}
