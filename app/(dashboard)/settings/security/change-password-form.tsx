'use client';

import { useActionState } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { changePasswordAction } from '@/lib/dashboard/actions/security';
import type { ActionError, ActionResult } from '@/lib/dashboard/action-result';

const FIELDS = ['currentPassword', 'newPassword', 'confirm'];

/** A refusal on the field it is about, or under the form. */
function errorsOf(error: ActionError): Record<string, string | undefined> {
  const first = error.errors?.[0];
  return first && FIELDS.includes(first.parameter) ? { [first.parameter]: first.detail } : { form: error.detail };
}

export function ChangePasswordForm({ minLength }: { minLength: number }) {
  const [state, action, pending] = useActionState<ActionResult<string> | null, FormData>(changePasswordAction, null);
  const errors = state && !state.ok ? errorsOf(state.error) : {};
  // Set after a change: the form is cleared and this is announced.
  const done = state?.ok ? state.data : undefined;
  return (
    // A new key after a change empties the fields.
    <form key={done} action={action} className="max-w-md space-y-4" noValidate>
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
          <span className="text-emerald-800 dark:text-emerald-300">{done}</span>
        )}
      </p>
      <Button type="submit" disabled={pending}>
        {pending ? 'Changing…' : 'Change password'}
      </Button>
    </form>
  );
}
