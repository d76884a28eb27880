import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { authLinkClass } from '@/components/layout/auth-frame';
import { Card } from '@/components/ui/card';
import { pendingSignIn } from '@/lib/accounts';
import { currentSessionToken, safeNextPath } from '@/lib/dashboard/session';
import { SecondFactorForm } from './second-factor-form';

export const metadata: Metadata = { title: 'Two-factor sign-in · Publisher Portal' };

/** The sign-in's second step, for a person whose password was right and who has two-factor sign-in on. */
export default async function SecondFactorPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  const pending = await pendingSignIn(await currentSessionToken());
  if (!pending) redirect('/login');
  return (
    <main className="flex min-h-dvh items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm space-y-6">
        <div className="text-center">
          <p className="text-sm font-semibold tracking-wide text-accent-700 uppercase dark:text-accent-300">
            Publisher Portal
          </p>
          <h1 className="mt-2 text-2xl font-semibold">Two-factor sign-in</h1>
          <p className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
            Open your authenticator app and type the code it shows for {pending.email}.
          </p>
        </div>
        <Card className="p-6">
          <SecondFactorForm next={next ? safeNextPath(next) : undefined} />
          <p className="mt-4 text-center text-sm">
            <Link href="/login" className={authLinkClass}>
              Sign in as someone else
            </Link>
          </p>
        </Card>
      </div>
    </main>
  );
}
