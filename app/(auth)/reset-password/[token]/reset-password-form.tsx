'use client';

import { useActionState } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { LinkExpired } from './link-expired';
import { resetPasswordAction } from '@/lib/dashboard/actions/password-reset';
import { firstProblem, type ActionResult } from '@/lib/dashboard/action-result';

export function ResetPasswordForm({ token, minLength }: { token: string; minLength: number }) {
  const [state, action, pending] = useActionState<ActionResult<never> | null, FormData>(resetPasswordAction, null);
  // The link no longer works (used, superseded, expired): the page offers a new one.
  if (state && !state.ok && state.error.status === 404) return <LinkExpired />;
  const problem = state && !state.ok ? firstProblem(state.error) : undefined;
  const errors = problem && { [problem.field === 'confirm' ? 'confirm' : 'password']: problem.message };
  return (
    <form action={action} className="space-y-4" noValidate>
      <input type="hidden" name="token" value={token} />
      <Field
        label="New password"
        id="password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={minLength}
        autoFocus
        hint={`At least ${minLength} characters. A few unrelated words make a strong one; very common passwords are refused.`}
        error={errors?.password}
      />
      <Field
        label="New password again"
        id="confirm"
        name="confirm"
        type="password"
        autoComplete="new-password"
        required
        error={errors?.confirm}
      />
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? 'Saving…' : 'Set new password'}
      </Button>
    </form>
  );
}
