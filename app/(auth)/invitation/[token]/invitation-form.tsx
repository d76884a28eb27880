'use client';

import { type RefObject, useActionState, useEffect, useRef } from 'react';
import { Button } from '@/components/ui/button';
import { Field, inputClass } from '@/components/ui/field';
import { acceptInvitationAction } from '@/lib/dashboard/actions/invitation';
import type { ActionError, ActionResult } from '@/lib/dashboard/action-result';

/** A refusal on its field; too many attempts and anything else under the form. */
function errorsOf(error: ActionError, hasSignIn: boolean): { password?: string; confirm?: string; form?: string } {
  const problem = error.status === 429 ? undefined : error.errors?.[0];
  if (problem?.parameter === 'confirm') return { confirm: problem.detail };
  if (problem?.parameter !== 'password') return { form: error.detail };
  // A rule's words follow "The password"; a wrong existing password is a sentence of its own.
  return { password: hasSignIn ? problem.detail : `The password ${problem.detail}.` };
}

interface Props {
  token: string;
  accountName: string;
  role: string;
  email: string;
  /** The e-mail signs in here already: one field for that password instead of a new one twice. */
  hasSignIn: boolean;
  minLength: number;
}

/** A password input with its label, hint and error, the error tied to it with aria-describedby. */
function PasswordField(props: {
  id: string;
  label: string;
  autoComplete?: string;
  hint?: string;
  error?: string;
  autoFocus?: boolean;
  inputRef: RefObject<HTMLInputElement | null>;
}) {
  const { id, label, hint, error, autoFocus, inputRef, autoComplete = 'new-password' } = props;
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      <input
        ref={inputRef}
        id={id}
        name={id}
        type="password"
        autoComplete={autoComplete}
        required
        autoFocus={autoFocus}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        className={inputClass}
      />
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-zinc-600 dark:text-zinc-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

export function InvitationForm({ token, accountName, role, email, hasSignIn, minLength }: Props) {
  const [state, action, pending] = useActionState<ActionResult<never> | null, FormData>(acceptInvitationAction, null);
  const errors = state && !state.ok ? errorsOf(state.error, hasSignIn) : {};
  const password = useRef<HTMLInputElement>(null);
  const confirm = useRef<HTMLInputElement>(null);
  // After a refusal the first wrong field gets the focus, so a keyboard or screen reader user lands on the error.
  useEffect(() => {
    const refused = state && !state.ok ? errorsOf(state.error, hasSignIn) : {};
    if (refused.password) password.current?.focus();
    else if (refused.confirm) confirm.current?.focus();
  }, [state, hasSignIn]);
  return (
    <form action={action} className="space-y-4" noValidate>
      <div className="text-sm">
        <p className="text-zinc-600 dark:text-zinc-400">Account</p>
        <p className="font-medium text-zinc-900 dark:text-zinc-100">{accountName}</p>
        <p className="text-zinc-700 dark:text-zinc-300">
          {email} · {role}
        </p>
      </div>
      {/* For password managers: the person the password belongs to. */}
      <input type="hidden" name="username" autoComplete="username" value={email} readOnly />
      <input type="hidden" name="token" value={token} />
      {hasSignIn ? (
        <PasswordField
          id="password"
          label="Your password"
          hint="You already sign in here with this e-mail: its password lets you join."
          autoComplete="current-password"
          error={errors.password}
          autoFocus
          inputRef={password}
        />
      ) : (
        <>
          <Field label="Your name" id="name" name="name" autoComplete="name" maxLength={200} />
          <PasswordField
            id="password"
            label="New password"
            hint={`At least ${minLength} characters; a passphrase of a few words is easy to remember.`}
            error={errors.password}
            inputRef={password}
          />
          <PasswordField id="confirm" label="Type it again" error={errors.confirm} inputRef={confirm} />
        </>
      )}
      <p role="alert" aria-live="polite" className="min-h-5 text-sm text-red-700 dark:text-red-400">
        {errors.form}
      </p>
      <Button type="submit" className="w-full" disabled={pending}>
        {hasSignIn
          ? pending
            ? 'Joining…'
            : `Join ${accountName}`
          : pending
            ? 'Setting your password…'
            : 'Set password and sign in'}
      </Button>
    </form>
  );
}
