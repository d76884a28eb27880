'use client';

import { Plus } from 'lucide-react';
import { useId, useState, useTransition } from 'react';
import { createPublisherAction } from '@/lib/dashboard/actions/publishers';
import { messagesOf, type ActionError } from '@/lib/dashboard/action-result';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { inputClass } from '@/components/ui/field';
import { keepingFields } from '@/components/ui/submit';

type Created = Awaited<ReturnType<typeof createPublisherAction>>;

/** What the form shows: an e-mail taken already, or each field's message after its name. */
function messagesFor(error: ActionError): Record<string, string | undefined> {
  if (error.status === 409) return { email: 'An account with this e-mail already exists.' };
  const { email, name, form } = messagesOf(error, ['email', 'name']);
  return { email: email && `E-mail ${email}`, name: name && `Name ${name}`, form };
}

/** A labelled text input whose error is tied to it (aria-describedby) and marks it invalid. */
function TextField(props: {
  id: string;
  name: string;
  label: string;
  type?: string;
  error?: string;
  autoComplete?: string;
}) {
  const { id, name, label, type = 'text', error, autoComplete } = props;
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        required
        autoComplete={autoComplete}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={inputClass}
      />
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

/** "New publisher": name and e-mail; on success, says where the invitation went (the link travels by e-mail only). */
export function NewPublisherDialog() {
  const [open, setOpen] = useState(false);
  const [result, setResult] = useState<Created | null>(null);
  const [pending, startTransition] = useTransition();
  const id = useId();
  const submit = (form: FormData) =>
    startTransition(async () => {
      setResult(
        await createPublisherAction({ name: String(form.get('name') ?? ''), email: String(form.get('email') ?? '') }),
      );
    });
  const errors = result && !result.ok ? messagesFor(result.error) : {};
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setResult(null);
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden className="size-4" />
          New publisher
        </Button>
      </DialogTrigger>
      {result?.ok ? (
        <DialogContent title="Publisher invited" description={`${result.data.name} can now choose a password.`}>
          <p className="text-sm text-zinc-700 dark:text-zinc-300">
            Invitation sent to <strong>{result.data.email}</strong>. Its link works once, for 72 hours, and goes only to
            that address. Send it again from the publisher&apos;s row if it gets lost.
          </p>
          <div className="mt-6 flex justify-end">
            <DialogClose asChild>
              <Button>Done</Button>
            </DialogClose>
          </div>
        </DialogContent>
      ) : (
        <DialogContent
          title="New publisher"
          description="The publisher gets an e-mail with a link to choose a password. You never see or set it."
        >
          {/* The form keeps its values after a refused submit: React resets only on success. */}
          <form onSubmit={keepingFields(submit)} className="space-y-4" noValidate>
            <TextField id={`${id}-name`} name="name" label="Name" error={errors.name} autoComplete="off" />
            <TextField
              id={`${id}-email`}
              name="email"
              type="email"
              label="E-mail"
              error={errors.email}
              autoComplete="off"
            />
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
                {pending ? 'Creating…' : 'Create and invite'}
              </Button>
            </div>
          </form>
        </DialogContent>
      )}
    </Dialog>
  );
}
