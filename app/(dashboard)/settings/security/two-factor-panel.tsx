'use client';

import { useState, useTransition } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { keepingFields } from '@/components/ui/submit';
import type { TwoFactorSetup } from '@/lib/identity';
import { confirmTwoFactorAction, disableTwoFactorAction, startTwoFactorAction } from '@/lib/dashboard/actions/security';
import { firstProblem, type ActionResult } from '@/lib/dashboard/action-result';

/**
 * Two-factor sign-in: turn it on (scan the QR code or type the secret, confirm a code, keep the recovery codes
 * shown once), or off with a current code.
 */
export function TwoFactorPanel({
  enabled,
  codesLeft,
  required,
}: {
  enabled: boolean;
  codesLeft: number;
  required: boolean;
}) {
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [result, setResult] = useState<ActionResult<unknown> | null>(null);
  const [pending, startTransition] = useTransition();
  const error = result && !result.ok ? firstProblem(result.error).message : undefined;

  if (codes) return <RecoveryCodes codes={codes} />;
  if (enabled) {
    return (
      <div className="space-y-4">
        <p className="flex items-center gap-2 text-sm">
          <Badge tone="green">On</Badge> Sign-in asks for a code from your app. {codesLeft} recovery{' '}
          {codesLeft === 1 ? 'code' : 'codes'} left.
        </p>
        {required ? (
          <p className="text-sm text-zinc-700 dark:text-zinc-300">An account of yours requires it, so it stays on.</p>
        ) : (
          <form
            noValidate
            className="flex flex-wrap items-end gap-3"
            onSubmit={keepingFields((form) =>
              startTransition(async () => setResult(await disableTwoFactorAction(String(form.get('code') ?? '')))),
            )}
          >
            <Field
              label="Code from your app"
              id="disable-code"
              name="code"
              autoComplete="one-time-code"
              inputMode="numeric"
              error={error}
            />
            <Button type="submit" variant="secondary" disabled={pending}>
              Turn off
            </Button>
          </form>
        )}
      </div>
    );
  }
  if (!setup) {
    return (
      <div className="space-y-3">
        <p className="flex items-center gap-2 text-sm">
          <Badge tone="gray">Off</Badge> Add a code from an authenticator app to your password.
        </p>
        <Button
          disabled={pending}
          onClick={() =>
            startTransition(async () => {
              const started = await startTwoFactorAction();
              setResult(started);
              if (started.ok) setSetup(started.data);
            })
          }
        >
          Turn on two-factor sign-in
        </Button>
        {error && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {error}
          </p>
        )}
      </div>
    );
  }
  return (
    <div className="space-y-4">
      <p className="text-sm">Scan this code with your authenticator app, or type the secret into it.</p>
      {/* An SVG made on the server from the otpauth URI: nothing is fetched from elsewhere. */}
      <div
        role="img"
        aria-label="QR code of the two-factor secret"
        className="size-44 rounded bg-white p-2"
        dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
      />
      <p className="text-sm">
        Secret:{' '}
        <code data-testid="totp-secret" className="font-mono break-all">
          {setup.secret}
        </code>
      </p>
      <form
        noValidate
        className="flex flex-wrap items-end gap-3"
        onSubmit={keepingFields((form) =>
          startTransition(async () => {
            const confirmed = await confirmTwoFactorAction(String(form.get('code') ?? ''));
            setResult(confirmed);
            if (confirmed.ok) setCodes(confirmed.data);
          }),
        )}
      >
        <Field
          label="Code from your app"
          id="confirm-code"
          name="code"
          autoComplete="one-time-code"
          inputMode="numeric"
          error={error}
        />
        <Button type="submit" disabled={pending}>
          Confirm
        </Button>
      </form>
    </div>
  );
}

/** The ten recovery codes, shown once: each signs in once when the phone is not at hand. */
function RecoveryCodes({ codes }: { codes: string[] }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="space-y-3" role="status">
      <p className="flex items-center gap-2 text-sm">
        <Badge tone="green">On</Badge> Two-factor sign-in is on.
      </p>
      <p className="text-sm">
        Keep these recovery codes somewhere safe. Each works once, instead of a code from your app. They are shown only
        now.
      </p>
      <ul data-testid="recovery-codes" className="grid grid-cols-2 gap-1 font-mono text-sm">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <Button
        variant="secondary"
        onClick={async () => {
          await navigator.clipboard.writeText(codes.join('\n'));
          setCopied(true);
        }}
      >
        {copied ? 'Copied' : 'Copy codes'}
      </Button>
    </div>
  );
}
