'use client';

import { useState, useTransition } from 'react';
import { revokeKeyAction, rotateKeyAction } from '@/lib/dashboard/actions/keys';
import type { ActionResult } from '@/lib/dashboard/action-result';
import { Button } from '@/components/ui/button';
import { DialogClose, DialogContent } from '@/components/ui/dialog';
import type { ApiKeyResponse } from '@/lib/keys';
import { NewKeyReveal } from './new-key-reveal';
import { useAccount } from '@/components/layout/use-account';

export interface RotateTarget {
  key: ApiKeyResponse;
  /** The key's sites by name, or "All sites", as its row shows them. */
  scope: string;
}

type RotateKeyResult = Awaited<ReturnType<typeof rotateKeyAction>>;
type Created = Extract<RotateKeyResult, { ok: true }>['data'];
type CloseFocus = (event: Event) => void;

const HOUR = 3_600_000;
const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** What the replacement's expiry will be: the old key's lifetime, counted from the rotation. */
function lifetime(key: ApiKeyResponse) {
  if (!key.expiresAt) return 'Like this key, it will not expire.';
  const hours = Math.max(1, Math.round((Date.parse(key.expiresAt) - Date.parse(key.createdAt)) / HOUR));
  const span = hours < 48 ? plural(hours, 'hour') : plural(Math.round(hours / 24), 'day');
  return `Like this key, it will expire ${span} after it is created.`;
}

const Prefix = ({ apiKey }: { apiKey: ApiKeyResponse }) => <code className="font-mono">{apiKey.keyPrefix}…</code>;

const Failure = ({ message }: { message: string }) => (
  <p role="alert" className="text-sm text-red-700 dark:text-red-400">
    {message}
  </p>
);

/**
 * "Rotate", after Stripe's "Roll key": confirm, then the replacement shown once with the choice to revoke
 * the old key now or keep both while scripts switch over.
 */
export function RotateKeyDialog({ target, onCloseAutoFocus }: { target: RotateTarget; onCloseAutoFocus: CloseFocus }) {
  const account = useAccount();
  const { key: old, scope } = target;
  const [result, setResult] = useState<RotateKeyResult | null>(null);
  const [pending, startTransition] = useTransition();
  if (result?.ok) return <Replacement old={old} created={result.data} onCloseAutoFocus={onCloseAutoFocus} />;
  const rotate = () => startTransition(async () => setResult(await rotateKeyAction(account, old.id)));
  return (
    <DialogContent
      title={`Rotate ${old.label ? `“${old.label}”` : `${old.keyPrefix}…`}?`}
      description={`A replacement key with the same label and sites (${scope}) will be created and shown once. ${lifetime(old)}`}
      onCloseAutoFocus={onCloseAutoFocus}
    >
      <div className="space-y-4">
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          The old key <Prefix apiKey={old} /> keeps working until you revoke it in the next step, so that scripts and
          tools can switch over first.
        </p>
        {result && !result.ok && <Failure message={result.error.detail} />}
        <div className="flex flex-wrap justify-end gap-2">
          <DialogClose asChild>
            <Button variant="secondary">Cancel</Button>
          </DialogClose>
          <Button onClick={rotate} disabled={pending}>
            {pending ? 'Creating…' : 'Create replacement'}
          </Button>
        </div>
      </div>
    </DialogContent>
  );
}

/** The replacement's raw key, once, and what to do with the old key. */
function Replacement({
  old,
  created,
  onCloseAutoFocus,
}: {
  old: ApiKeyResponse;
  created: Created;
  onCloseAutoFocus: CloseFocus;
}) {
  const account = useAccount();
  const [revoked, setRevoked] = useState<ActionResult<string> | null>(null);
  const [pending, startTransition] = useTransition();
  const revokeOld = () => startTransition(async () => setRevoked(await revokeKeyAction(account, old.id)));
  return (
    <DialogContent
      title="Your new API key"
      description={`“${created.key.label ?? created.key.keyPrefix}” replaces ${old.keyPrefix}…: put it in your scripts and tools, then revoke the old key.`}
      onCloseAutoFocus={onCloseAutoFocus}
    >
      <NewKeyReveal apiKey={created.apiKey} />
      <div className="mt-6 space-y-4">
        {/* Rendered empty from the start, so that screen readers announce the message when it comes. */}
        <p role="status" className="text-sm font-medium">
          {revoked?.ok ? revoked.data : ''}
        </p>
        {revoked?.ok ? (
          <div className="flex justify-end">
            <DialogClose asChild>
              {/* The button that was pressed is gone: focus moves on to the way out. */}
              <Button autoFocus>Done</Button>
            </DialogClose>
          </div>
        ) : (
          <>
            <p className="text-sm text-zinc-700 dark:text-zinc-300">
              Revoke old key now? <Prefix apiKey={old} /> stops working at once: anything still using it gets 401
              errors. Or keep both, and revoke it later from the table.
            </p>
            {revoked && !revoked.ok && <Failure message={revoked.error.detail} />}
            <div className="flex flex-wrap justify-end gap-2">
              <DialogClose asChild>
                <Button variant="secondary">Keep both for now</Button>
              </DialogClose>
              <Button variant="danger" onClick={revokeOld} disabled={pending}>
                {pending ? 'Revoking…' : `Revoke ${old.keyPrefix}…`}
              </Button>
            </div>
          </>
        )}
      </div>
    </DialogContent>
  );
}
