import type { Metadata } from 'next';
import { Card } from '@/components/ui/card';
import { WayOut } from '@/components/layout/way-out';

export const metadata: Metadata = { title: 'Page not found · Publisher Portal' };

/** Any address without a page: the portal's own 404, in its colours and themes, with a way on. */
export default function NotFound() {
  return (
    <main id="main" className="flex min-h-dvh items-center justify-center px-4 py-12">
      <Card className="w-full max-w-lg space-y-4 p-6">
        <p className="text-sm font-semibold tracking-wide text-accent-700 uppercase dark:text-accent-300">
          Publisher Portal
        </p>
        <h1 className="text-xl font-semibold">Page not found</h1>
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          There is no page at this address: the link may be mistyped, or the page may have moved.
        </p>
        <WayOut />
      </Card>
    </main>
  );
}
