'use client';

import { useActionState } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { signInAction, type SignInState } from './actions';

export function LoginForm({ next }: { next?: string }) {
  const [state, action, pending] = useActionState<SignInState, FormData>(signInAction, {});
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
        defaultValue={state.email}
        autoFocus
      />
      <Field label="Password" id="password" name="password" type="password" autoComplete="current-password" required />
      <p role="alert" aria-live="polite" className="min-h-5 text-sm text-red-700 dark:text-red-400">
        {state.error}
      </p>
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? 'Signing in…' : 'Sign in'}
      </Button>
    </form>
  );
}
