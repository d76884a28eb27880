'use client';

import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { WayOut } from '@/components/layout/way-out';

/**
 * What a page that failed to load shows (the database went away mid-render, say): what happened, a reference
 * to quote, and a way to try again, inside the dashboard or, when the shell itself failed, on its own.
 */
export function PageError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <Card role="alert" className="w-full max-w-lg p-6">
      <h2 className="font-semibold">This page could not be loaded</h2>
      <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
        The portal may be temporarily unavailable. Try again in a moment
        {error.digest ? ` (reference ${error.digest})` : ''}.
      </p>
      <Button className="mt-4" onClick={reset}>
        Try again
      </Button>
    </Card>
  );
}

/** The same, centred on a page of its own with the portal's pages: for failures above the dashboard's shell. */
export function StandalonePageError(props: Parameters<typeof PageError>[0]) {
  return (
    <main id="main" className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4 py-12">
      <PageError {...props} />
      <WayOut />
    </main>
  );
}
