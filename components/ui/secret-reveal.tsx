'use client';

import { Check, Copy, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { Button } from './button';

/**
 * A secret shown once (a new API key, a webhook's signing secret): monospace, selectable, with a copy button
 * that confirms. `what` names it in the buttons; `warning` says why it will not be shown again.
 */
export function SecretReveal({
  secret,
  what,
  warning,
  testId,
}: {
  secret: string;
  what: 'key' | 'secret';
  warning: string;
  testId: string;
}) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(secret);
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <div className="space-y-3">
      <div className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-500/40 dark:bg-amber-500/10 dark:text-amber-100">
        <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
        <p>{warning}</p>
      </div>
      <div className="flex items-center gap-2">
        <code
          data-testid={testId}
          className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-zinc-50 px-3 py-2 font-mono text-sm break-all select-all dark:border-zinc-700 dark:bg-zinc-950"
        >
          {secret}
        </code>
        <Button variant="secondary" onClick={copy} aria-label={copied ? 'Copied' : `Copy ${what}`}>
          {copied ? <Check aria-hidden className="size-4" /> : <Copy aria-hidden className="size-4" />}
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <p aria-live="polite" className="sr-only">
        {copied ? `${what === 'key' ? 'Key' : 'Secret'} copied to the clipboard` : ''}
      </p>
    </div>
  );
}
