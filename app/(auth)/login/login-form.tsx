'use client';

import { useActionState } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { signInAction } from '@/lib/dashboard/actions/sign-in';
import type { ActionResult } from '@/lib/dashboard/action-result';

export function LoginForm({ next }: { next?: string }) {
  const [state, action, pending] = useActionState<ActionResult<never> | null, FormData>(signInAction, null);
  const refused = state && !state.ok ? state : undefined;
  return (
    <form action={action} className="space-y-4" noValidate>
      {next && <input type="hidden" name="next" value={next} />}
      <Field
        label="Email"
        id="email"
        name="email"
        type="email"
        autoComplete="username"
        required
        defaultValue={refused?.echo?.email}
        autoFocus
      />
      <Field label="Password" id="password" name="password" type="password" autoComplete="current-password" required />
      <p role="alert" aria-live="polite" className="min-h-5 text-sm text-red-700 dark:text-red-400">
        {refused?.error.detail}
      </p>
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? 'Signing in…' : 'Sign in'}
      </Button>
    </form>
  );
}
