import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { AuthFrame, authLinkClass } from '@/components/layout/auth-frame';
import { pendingSignIn } from '@/lib/identity';
import { currentSessionToken, safeNextPath } from '@/lib/dashboard/session';
import { SecondFactorForm } from './second-factor-form';

export const metadata: Metadata = { title: 'Two-factor sign-in · Publisher Portal' };

/** The sign-in's second step, for a person whose password was right and who has two-factor sign-in on. */
export default async function SecondFactorPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  const pending = await pendingSignIn(await currentSessionToken());
  if (!pending) redirect('/login');
  return (
    <AuthFrame
      title="Two-factor sign-in"
      lead={`Open your authenticator app and type the code it shows for ${pending.email}.`}
    >
      <SecondFactorForm next={next ? safeNextPath(next) : undefined} />
      <p className="mt-4 text-center text-sm">
        <Link href="/login" className={authLinkClass}>
          Sign in as someone else
        </Link>
      </p>
    </AuthFrame>
  );
}
