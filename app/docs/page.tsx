import type { Metadata } from 'next';
import { headers } from 'next/headers';
import Link from 'next/link';
import { Guide } from '@/components/docs/guide';
import { OperationCard } from '@/components/docs/operation-card';
import { apiReference } from '@/lib/api/reference';
import { originOf } from '@/lib/api/origin';

export const metadata: Metadata = { title: 'API docs · Publisher Portal' };

/** The public API reference: no sign-in, rendered from the OpenAPI document (GET /api/v1/openapi.json). */
export default async function DocsPage() {
  // This server's origin as the browser reached it, so every curl on the page can be pasted as is.
  const base = originOf(await headers());
  const reference = apiReference(base);
  return (
    <main id="main" className="mx-auto max-w-4xl space-y-6 px-4 py-8">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <p className="text-sm font-semibold text-accent-700 dark:text-accent-300">Publisher Portal</p>
          <h1 className="text-2xl font-semibold tracking-tight">API docs</h1>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{reference.description}</p>
        </div>
        <nav aria-label="Docs" className="flex gap-4 text-sm">
          <a href="/api/v1/openapi.json" className="font-medium text-accent-700 underline dark:text-accent-300">
            OpenAPI document
          </a>
          <Link href="/" className="font-medium text-accent-700 underline dark:text-accent-300">
            Dashboard
          </Link>
        </nav>
      </header>
      <Guide origin={base} />
      <section aria-labelledby="operations-title" className="space-y-4">
        <h2 id="operations-title" className="text-lg font-semibold">
          Operations
        </h2>
        {reference.operations.map((op) => (
          <OperationCard key={op.id} op={op} />
        ))}
      </section>
    </main>
  );
}
