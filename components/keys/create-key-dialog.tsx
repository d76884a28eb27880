'use client';

import { Plus } from 'lucide-react';
import { useId, useState, useTransition } from 'react';
import { createKeyAction } from '@/lib/dashboard/actions/keys';
import { messagesOf, type ActionError } from '@/lib/dashboard/action-result';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { Field, inputClass } from '@/components/ui/field';
import { addDays } from '@/lib/query/dates';
import { NewKeyReveal } from './new-key-reveal';
import { keepingFields } from '@/components/ui/submit';
import { useAccount } from '@/components/layout/use-account';

/** How long a new key works: the last day it works is that many days from today (UTC), or a chosen day. */
const EXPIRY_CHOICES = [
  { id: 'never', label: 'Never' },
  { id: '30', label: 'In 30 days' },
  { id: '90', label: 'In 90 days' },
  { id: '365', label: 'In a year' },
  { id: 'date', label: 'On a date…' },
] as const;
type ExpiryChoice = (typeof EXPIRY_CHOICES)[number]['id'];

type Created = Awaited<ReturnType<typeof createKeyAction>>;

/** The dialog's messages: the service's refusal of the expiry on its field, anything not on a field under the form. */
const messagesFor = (error: ActionError): Record<string, string> =>
  error.errors?.[0]?.parameter === 'expiresAt'
    ? { expiresOn: 'The expiry date must be in the future' }
    : messagesOf(error, ['label', 'expiresOn']);

export interface Option {
  id: string;
  name: string;
}

/**
 * "Create key": label, optional site restriction, optional expiry. On success the dialog switches to the
 * raw key, shown once; closing it forgets the key for good. With `publishers` (admins), it creates a key
 * that acts for the chosen publisher instead.
 */
export function CreateKeyDialog({
  sites,
  publishers,
  today,
}: {
  sites: Option[];
  publishers?: Option[];
  today: string;
}) {
  const account = useAccount();
  const [open, setOpen] = useState(false);
  const [expiry, setExpiry] = useState<ExpiryChoice>('never');
  const [result, setResult] = useState<Created | null>(null);
  const [pending, startTransition] = useTransition();
  const id = useId();
  const forUser = !!publishers;

  const submit = (form: FormData) =>
    startTransition(async () => {
      setResult(
        await createKeyAction(account, {
          label: String(form.get('label') ?? ''),
          siteIds: form.getAll('siteIds').map(String),
          expiresOn: String(form.get('expiresOn') ?? ''),
          forUserId: forUser ? String(form.get('forUserId') ?? '') : undefined,
        }),
      );
    });
  const errors = result && !result.ok ? messagesFor(result.error) : {};

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setResult(null); // the raw key is gone once the dialog closes
      }}
    >
      <DialogTrigger asChild>
        <Button variant={forUser ? 'secondary' : 'primary'}>
          <Plus aria-hidden className="size-4" />
          {forUser ? 'Create key for a publisher' : 'Create key'}
        </Button>
      </DialogTrigger>
      {result?.ok ? (
        <DialogContent
          title="Your new API key"
          description={`“${result.data.key.label ?? result.data.key.keyPrefix}” is ready to use.`}
        >
          <NewKeyReveal apiKey={result.data.apiKey} />
          <div className="mt-6 flex justify-end">
            <DialogClose asChild>
              <Button>Done</Button>
            </DialogClose>
          </div>
        </DialogContent>
      ) : (
        <DialogContent
          title={forUser ? 'Create a key for a publisher' : 'Create an API key'}
          description="Keys read reports over the HTTP API. Restrict a key to some sites or give it an end date if it is for a tool you only partly trust."
        >
          <form onSubmit={keepingFields(submit)} className="space-y-4">
            {publishers && (
              <div className="space-y-1.5">
                <label htmlFor={`${id}-user`} className="block text-sm font-medium">
                  Publisher
                </label>
                <select id={`${id}-user`} name="forUserId" required className={inputClass}>
                  {publishers.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name}
                    </option>
                  ))}
                </select>
              </div>
            )}
            <Field
              label="Label"
              id={`${id}-label`}
              name="label"
              maxLength={100}
              placeholder="e.g. Looker Studio"
              aria-invalid={!!errors.label}
              hint={errors.label}
            />
            {!forUser && sites.length > 0 && (
              <fieldset className="space-y-1.5">
                <legend className="text-sm font-medium">
                  Sites{' '}
                  <span className="font-normal text-zinc-600 dark:text-zinc-400">
                    (optional; none selected means all sites)
                  </span>
                </legend>
                <p className="text-xs text-zinc-600 dark:text-zinc-400">
                  A key limited to some sites reads their totals and revenue by country, but not the rows (one per site,
                  country and day) or their export, and it cannot list, create or revoke keys.
                </p>
                <div className="max-h-40 space-y-1 overflow-y-auto rounded-md border border-zinc-200 p-2 dark:border-zinc-700">
                  {sites.map((site) => (
                    <label key={site.id} className="flex items-center gap-2 text-sm">
                      <input type="checkbox" name="siteIds" value={site.id} className="size-4 accent-accent-600" />
                      {site.name}
                    </label>
                  ))}
                </div>
              </fieldset>
            )}
            <div className="space-y-1.5">
              <label htmlFor={`${id}-expiry`} className="block text-sm font-medium">
                Expires
              </label>
              <select
                id={`${id}-expiry`}
                className={inputClass}
                value={expiry}
                onChange={(e) => setExpiry(e.target.value as ExpiryChoice)}
              >
                {EXPIRY_CHOICES.map((choice) => (
                  <option key={choice.id} value={choice.id}>
                    {choice.label}
                  </option>
                ))}
              </select>
            </div>
            {expiry === 'date' ? (
              <Field
                label="Expires on"
                id={`${id}-expires`}
                name="expiresOn"
                type="date"
                min={today}
                aria-invalid={!!errors.expiresOn}
                hint={errors.expiresOn ?? 'The key stops working after this day (UTC).'}
              />
            ) : (
              <input type="hidden" name="expiresOn" value={expiry === 'never' ? '' : addDays(today, Number(expiry))} />
            )}
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
                {pending ? 'Creating…' : 'Create key'}
              </Button>
            </div>
          </form>
        </DialogContent>
      )}
    </Dialog>
  );
}
