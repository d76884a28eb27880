import type { Metadata } from 'next';
import { Card } from '@/components/ui/card';
import { databaseMisconfiguration } from '@/lib/platform/deployment';

export const metadata: Metadata = { title: 'Unavailable · Publisher Portal' };

/**
 * What every page shows, with status 503, while the portal has no database to work with (proxy.ts sends
 * requests here). It touches no database itself.
 */
export default function UnavailablePage() {
  const misconfigured = databaseMisconfiguration();
  return (
    <main id="main" className="flex min-h-dvh items-center justify-center px-4 py-12">
      <Card role="alert" className="w-full max-w-lg space-y-3 p-6">
        <p className="text-sm font-semibold tracking-wide text-accent-700 uppercase dark:text-accent-300">
          Publisher Portal
        </p>
        <h1 className="text-xl font-semibold">The portal is temporarily unavailable</h1>
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          {misconfigured ?? 'The reporting database cannot be reached right now. Try again in a moment.'}
        </p>
      </Card>
    </main>
  );
}
