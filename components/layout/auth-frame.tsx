import type { ReactNode } from 'react';
import { Card } from '@/components/ui/card';

/**
 * The signed-out pages' frame (sign-in and its second step, forgot and reset password): the portal's name, a title,
 * a line under it, a notice above the card, one card, a footer under it.
 */
export function AuthFrame({
  title,
  lead,
  notice,
  children,
  footer,
}: {
  title: string;
  lead?: ReactNode;
  notice?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <main className="flex min-h-dvh items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm space-y-6">
        <div className="text-center">
          <p className="text-sm font-semibold tracking-wide text-accent-700 uppercase dark:text-accent-300">
            Publisher Portal
          </p>
          <h1 className="mt-2 text-2xl font-semibold">{title}</h1>
          {lead && <p className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">{lead}</p>}
        </div>
        {notice}
        <Card className="p-6">{children}</Card>
        {footer && <div className="text-center text-sm text-zinc-700 dark:text-zinc-300">{footer}</div>}
      </div>
    </main>
  );
}

/** A link in the signed-out pages' text, in the accent colour. */
export const authLinkClass = 'font-medium text-accent-700 underline-offset-2 hover:underline dark:text-accent-300';
