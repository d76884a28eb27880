'use client';

import { Plus } from 'lucide-react';
import { useId, useState, useTransition } from 'react';
import { useAccount } from '@/components/layout/use-account';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { SecretReveal } from '@/components/ui/secret-reveal';
import { keepingFields } from '@/components/ui/submit';
import { messagesOf } from '@/lib/dashboard/action-result';
import { addWebhookAction } from '@/lib/dashboard/actions/webhooks';
import { WEBHOOK_EVENT_LABELS } from '@/lib/dashboard/event-labels';
import { WEBHOOK_EVENT_TYPES } from '@/lib/shared/events';

type Added = Awaited<ReturnType<typeof addWebhookAction>>;
/** Ticked at first: what most receivers want (the money and review events are one click away). */
const USUAL = new Set(['revenue.drop', 'revenue.spike', 'data.missing', 'data.updated']);

/** "Add webhook": URL, description, event types; then the signing secret, shown once. */
export function AddWebhookDialog() {
  const account = useAccount();
  const [open, setOpen] = useState(false);
  const [result, setResult] = useState<Added | null>(null);
  const [pending, startTransition] = useTransition();
  const id = useId();
  const submit = (form: FormData) =>
    startTransition(async () => {
      setResult(
        await addWebhookAction(account, {
          url: String(form.get('url') ?? ''),
          description: String(form.get('description') ?? ''),
          events: form.getAll('events').map(String),
        }),
      );
    });
  const errors = result && !result.ok ? messagesOf(result.error, ['url', 'description', 'events']) : {};
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setResult(null); // the secret is gone once the dialog closes
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden className="size-4" />
          Add webhook
        </Button>
      </DialogTrigger>
      {result?.ok ? (
        <DialogContent
          title="Your webhook’s signing secret"
          description={`Events now go to ${result.data.webhook.url}.`}
        >
          <SecretReveal
            secret={result.data.secret}
            what="secret"
            warning="Copy this signing secret now: it will not be shown again. Your receiver verifies each delivery with it (the Standard Webhooks libraries do it in one call)."
            testId="new-webhook-secret"
          />
          <div className="mt-6 flex justify-end">
            <DialogClose asChild>
              <Button>Done</Button>
            </DialogClose>
          </div>
        </DialogContent>
      ) : (
        <DialogContent
          title="Add a webhook"
          description="We POST each event you choose to this URL, signed, and retry for about a day if it does not answer 2xx."
        >
          <form onSubmit={keepingFields(submit)} className="space-y-4">
            <Field
              label="Endpoint URL"
              id={`${id}-url`}
              name="url"
              type="url"
              required
              placeholder="https://hooks.example.com/portal"
              error={errors.url}
            />
            <Field
              label="Description (optional)"
              id={`${id}-description`}
              name="description"
              maxLength={200}
              placeholder="e.g. Slack #revenue"
              error={errors.description}
            />
            <fieldset className="space-y-1.5">
              <legend className="text-sm font-medium">Events</legend>
              <div className="grid gap-1 sm:grid-cols-2">
                {WEBHOOK_EVENT_TYPES.map((type) => (
                  <label key={type} className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      name="events"
                      value={type}
                      defaultChecked={USUAL.has(type)}
                      className="accent-accent-600 size-4"
                    />
                    {WEBHOOK_EVENT_LABELS[type]}
                  </label>
                ))}
              </div>
              {errors.events && (
                <p role="alert" className="text-sm text-red-700 dark:text-red-400">
                  {errors.events}
                </p>
              )}
            </fieldset>
            {errors.form && (
              <p role="alert" className="text-sm text-red-700 dark:text-red-400">
                {errors.form}
              </p>
            )}
            <div className="flex justify-end gap-2">
              <DialogClose asChild>
                <Button variant="secondary">Cancel</Button>
              </DialogClose>
              <Button type="submit" disabled={pending}>
                {pending ? 'Adding…' : 'Add webhook'}
              </Button>
            </div>
          </form>
        </DialogContent>
      )}
    </Dialog>
  );
}
