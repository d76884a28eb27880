import Link from 'next/link';
import type { AppError } from '@/lib/shared/errors';
import { buttonClass } from '@/components/ui/button';
import { Card } from '@/components/ui/card';

/**
 * A link with filters that cannot be shown (a bad date, a range over two years, a site of another account)
 * explains itself and offers a way back instead of failing.
 */
export function FilterError({
  error,
  resetHref,
  title = 'These filters can’t be shown',
  resetLabel = 'Reset filters',
}: {
  error: AppError;
  resetHref: string;
  title?: string;
  resetLabel?: string;
}) {
  const messages = error.errors?.map((e) => e.detail) ?? [error.detail];
  return (
    <Card role="alert" className="p-6">
      <h2 className="font-semibold">{title}</h2>
      <ul className="mt-2 list-disc pl-5 text-sm text-zinc-700 dark:text-zinc-300">
        {messages.map((message) => (
          <li key={message}>{message}</li>
        ))}
      </ul>
      <Link href={resetHref} className={buttonClass('secondary', 'mt-4')}>
        {resetLabel}
      </Link>
    </Card>
  );
}
