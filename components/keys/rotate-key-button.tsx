'use client';

import { RefreshCw } from 'lucide-react';
import { createContext, type ReactNode, useCallback, useContext, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import type { ApiKeyResponse } from '@/lib/services/api-keys';
import { RotateKeyDialog, type RotateTarget } from './rotate-key-dialog';

type Open = (target: RotateTarget, trigger: HTMLElement) => void;
const RotateContext = createContext<Open | null>(null);

/**
 * The one Rotate dialog of a table of keys. It lives above the rows because revoking the old key moves that
 * key's row (and its Rotate button) out of the table while the dialog still has the new key to show.
 */
export function RotateKeys({ children }: { children: ReactNode }) {
  const [target, setTarget] = useState<RotateTarget | null>(null);
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
      {children}
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
