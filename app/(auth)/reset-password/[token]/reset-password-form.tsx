'use client';

import { useActionState } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { LinkExpired } from './link-expired';
import { resetPasswordAction, type ResetPasswordState } from './actions';

export function ResetPasswordForm({ token, minLength }: { token: string; minLength: number }) {
  const [state, action, pending] = useActionState<ResetPasswordState, FormData>(resetPasswordAction, {});
  if (state.expired) return <LinkExpired />;
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
        error={state.errors?.password}
      />
      <Field
        label="New password again"
        id="confirm"
        name="confirm"
        type="password"
        autoComplete="new-password"
        required
        error={state.errors?.confirm}
      />
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? 'Saving…' : 'Set new password'}
      </Button>
    </form>
  );
}
