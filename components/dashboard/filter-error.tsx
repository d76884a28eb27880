import Link from 'next/link';
import type { ValidationError } from '@/lib/http/problem';
import { buttonClass } from '@/components/ui/button';
import { Card } from '@/components/ui/card';

/** A link with an impossible filter (a bad date, a range over two years) explains itself instead of failing. */
export function FilterError({ error, resetHref }: { error: ValidationError; resetHref: string }) {
  return (
    <Card role="alert" className="p-6">
      <h2 className="font-semibold">These filters can’t be shown</h2>
      <ul className="mt-2 list-disc pl-5 text-sm text-zinc-700 dark:text-zinc-300">
        {(error.errors ?? []).map((e) => (
          <li key={e.parameter + e.detail}>{e.detail}</li>
        ))}
      </ul>
      <Link href={resetHref} className={buttonClass('secondary', 'mt-4')}>
        Reset filters
      </Link>
    </Card>
  );
}
