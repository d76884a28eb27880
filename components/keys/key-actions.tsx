'use client';

import { RefreshCw } from 'lucide-react';
import { createContext, type ReactNode, useCallback, useContext, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import type { ApiKeyResponse } from '@/lib/keys';
import { RotateKeyDialog, type RotateTarget } from './rotate-key-dialog';

type Open = (target: RotateTarget, trigger: HTMLElement) => void;
const RotateContext = createContext<Open | null>(null);

/** Says the result of a row's action (Revoke) from above the rows: the row itself leaves the table with it. */
export const AnnounceContext = createContext<((message: string) => void) | null>(null);

/**
 * Around the keys page's tables: its one Rotate dialog and its one status line. They live above the rows
 * because revoking a key moves its row (with its buttons) out of the table while the dialog still has the new
 * key to show, or while the result is still to be announced.
 */
export function KeyActions({ children }: { children: ReactNode }) {
  const [target, setTarget] = useState<RotateTarget | null>(null);
  const [message, setMessage] = useState('');
  const opener = useRef<{ trigger: HTMLElement; region: HTMLElement | null } | null>(null);
  const open = useCallback<Open>((next, trigger) => {
    opener.current = { trigger, region: trigger.closest<HTMLElement>('[role="region"]') };
    setTarget(next);
  }, []);
  // Back to the Rotate button, or to the table when that button left with the revoked key.
  const returnFocus = (event: Event) => {
    event.preventDefault();
    const { trigger, region } = opener.current ?? {};
    (trigger?.isConnected ? trigger : region)?.focus();
  };
  return (
    <RotateContext value={open}>
      <AnnounceContext value={setMessage}>{children}</AnnounceContext>
      <p role="status" className="sr-only">
        {message}
      </p>
      <Dialog open={target !== null} onOpenChange={(next) => !next && setTarget(null)}>
        {/* Keyed by key and unmounted on close: the raw key is forgotten when the dialog closes. */}
        {target && <RotateKeyDialog key={target.key.id} target={target} onCloseAutoFocus={returnFocus} />}
      </Dialog>
    </RotateContext>
  );
}

/** Rotate in a key's row: opens the table's Rotate dialog for that key. */
export function RotateKeyButton({ apiKey, scope }: { apiKey: ApiKeyResponse; scope: string }) {
  const open = useContext(RotateContext);
  return (
    <Button
      variant="ghost"
      aria-haspopup="dialog"
      onClick={(event) => open?.({ key: apiKey, scope }, event.currentTarget)}
    >
      <RefreshCw aria-hidden className="size-4" />
      Rotate<span className="sr-only"> {apiKey.label ?? apiKey.keyPrefix}</span>
    </Button>
  );
}
