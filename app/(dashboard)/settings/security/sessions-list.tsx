'use client';

import { useState, useTransition } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { formatDay } from '@/lib/shared/format';
import { endSessionAction } from '@/lib/dashboard/actions/security';
import { messageOf } from '@/lib/dashboard/action-result';

export interface SessionRow {
  id: string;
  device: string | null;
  clientAddress: string | null;
  signedInAt: string;
  lastSeenAt: string;
  current: boolean;
}

const when = (iso: string) => `${formatDay(iso.slice(0, 10))}, ${iso.slice(11, 16)} UTC`;

/** The person's sessions, this one marked; any other can be ended on its own. */
export function SessionsList({ sessions }: { sessions: SessionRow[] }) {
  const [message, setMessage] = useState('');
  const [pending, startTransition] = useTransition();
  return (
    <>
      <ul className="divide-y divide-zinc-200 text-sm dark:divide-zinc-800">
        {sessions.map((s) => (
          <li key={s.id} data-testid="session-row" className="flex flex-wrap items-center gap-3 py-3">
            <span className="min-w-0 grow">
              <span className="font-medium">{s.device ?? 'Unknown browser'}</span>
              {s.current && (
                <>
                  {' '}
                  <Badge tone="green">This browser</Badge>
                </>
              )}
              <br />
              <span className="text-xs text-zinc-600 dark:text-zinc-400">
                {s.clientAddress && s.clientAddress !== 'unknown' ? `${s.clientAddress} · ` : ''}signed in{' '}
                {when(s.signedInAt)} · last active {when(s.lastSeenAt)}
              </span>
            </span>
            {!s.current && (
              <Button
                variant="ghost"
                disabled={pending}
                onClick={() => startTransition(async () => setMessage(messageOf(await endSessionAction(s.id))))}
              >
                End<span className="sr-only"> the session of {s.device ?? 'an unknown browser'}</span>
              </Button>
            )}
          </li>
        ))}
      </ul>
      <p role="status" className="min-h-5 text-sm text-zinc-700 dark:text-zinc-300">
        {message}
      </p>
    </>
  );
}
