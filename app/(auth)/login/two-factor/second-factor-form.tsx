'use client';

import { useActionState } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { secondFactorAction } from '@/lib/dashboard/actions/sign-in';
import type { ActionResult } from '@/lib/dashboard/action-result';

/** The code from the app, or one of the recovery codes (the same field takes both). */
export function SecondFactorForm({ next }: { next?: string }) {
  const [state, action, pending] = useActionState<ActionResult<never> | null, FormData>(secondFactorAction, null);
  return (
    <form action={action} className="space-y-4" noValidate>
      {next && <input type="hidden" name="next" value={next} />}
      <Field
        label="Code"
        id="code"
        name="code"
        inputMode="text"
        autoComplete="one-time-code"
        hint="The 6 digits from your app, or a recovery code like abcde-fghij."
        required
        autoFocus
        maxLength={64}
      />
      <p role="alert" aria-live="polite" className="min-h-5 text-sm text-red-700 dark:text-red-400">
        {state && !state.ok && state.error.detail}
      </p>
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? 'Checking…' : 'Verify and sign in'}
      </Button>
    </form>
  );
}
