'use client';

import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';

/** A failure while loading a page (e.g. the database is down) shows a way out instead of a blank screen. */
export default function DashboardError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <Card role="alert" className="p-6">
      <h2 className="font-semibold">This page could not be loaded</h2>
      <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
        Something went wrong on our side. Try again in a moment{error.digest ? ` (reference ${error.digest})` : ''}.
      </p>
      <Button className="mt-4" onClick={reset}>
        Try again
      </Button>
    </Card>
  );
}
