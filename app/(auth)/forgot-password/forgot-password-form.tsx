'use client';

import Link from 'next/link';
import { useActionState } from 'react';
import { authLinkClass } from '@/components/layout/auth-frame';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { forgotPasswordAction } from '@/lib/dashboard/actions/password-reset';
import type { ActionResult } from '@/lib/dashboard/action-result';

export function ForgotPasswordForm() {
  const [state, action, pending] = useActionState<ActionResult<string> | null, FormData>(forgotPasswordAction, null);
  const refused = state && !state.ok ? state : undefined;
  if (state?.ok) {
    return (
      <div role="status" className="space-y-3 text-sm text-zinc-800 dark:text-zinc-200">
        <p className="font-medium">Check your e-mail.</p>
        <p>
          If <strong className="break-all">{state.data}</strong> is the address of an active account, a link to choose a
          new password is on its way. It works once, within 60 minutes.
        </p>
        <p className="text-zinc-600 dark:text-zinc-400">
          Nothing after a few minutes? Look in your spam folder, or ask your administrator: an account that was never
          set up or is deactivated gets no link.
        </p>
        <p>
          <Link href="/login" className={authLinkClass}>
            Back to sign in
          </Link>
        </p>
      </div>
    );
  }
  return (
    <form action={action} className="space-y-4" noValidate>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        Enter the e-mail address you sign in with; we will send you a link to choose a new password.
      </p>
      <Field
        label="Email"
        id="email"
        name="email"
        type="email"
        autoComplete="username"
        required
        defaultValue={refused?.echo?.email}
        autoFocus
        error={refused?.error.detail}
      />
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? 'Sending…' : 'Send reset link'}
      </Button>
    </form>
  );
}
