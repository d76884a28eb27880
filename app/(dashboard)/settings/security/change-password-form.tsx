'use client';

import { useActionState } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { changePasswordAction, type ChangePasswordState } from './actions';

export function ChangePasswordForm({ minLength }: { minLength: number }) {
  const [state, action, pending] = useActionState<ChangePasswordState, FormData>(changePasswordAction, {});
  const errors = state.errors ?? {};
  return (
    // A new key after a change empties the fields.
    <form key={state.done} action={action} className="max-w-md space-y-4" noValidate>
      <Field
        label="Current password"
        id="currentPassword"
        name="currentPassword"
        type="password"
        autoComplete="current-password"
        required
        error={errors.currentPassword}
      />
      <Field
        label="New password"
        id="newPassword"
        name="newPassword"
        type="password"
        autoComplete="new-password"
        required
        minLength={minLength}
        hint={`At least ${minLength} characters. A few unrelated words make a strong one; very common passwords are refused.`}
        error={errors.newPassword}
      />
      <Field
        label="New password again"
        id="confirm"
        name="confirm"
        type="password"
        autoComplete="new-password"
        required
        error={errors.confirm}
      />
      <p aria-live="polite" className="min-h-5 text-sm">
        {errors.form ? (
          <span className="text-red-700 dark:text-red-400">{errors.form}</span>
        ) : (
          <span className="text-emerald-800 dark:text-emerald-300">{state.done}</span>
        )}
      </p>
      <Button type="submit" disabled={pending}>
        {pending ? 'Changing…' : 'Change password'}
      </Button>
    </form>
  );
}
