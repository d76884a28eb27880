import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { authLinkClass } from '@/components/layout/auth-frame';
import { Card } from '@/components/ui/card';
import { currentUser, safeNextPath } from '@/lib/dashboard/session';
import { LoginForm } from './login-form';

export const metadata: Metadata = { title: 'Sign in · Publisher Portal' };

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string; reset?: string }>;
}) {
  const { next, reset } = await searchParams;
  if (await currentUser()) redirect(safeNextPath(next));
  return (
    <main className="flex min-h-dvh items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm space-y-6">
        <div className="text-center">
          <p className="text-sm font-semibold tracking-wide text-accent-700 uppercase dark:text-accent-300">
            Publisher Portal
          </p>
          <h1 className="mt-2 text-2xl font-semibold">Sign in to your account</h1>
        </div>
        {reset === 'done' && (
          <p
            role="status"
            className="rounded-md border border-emerald-300 bg-emerald-50 px-4 py-3 text-sm text-emerald-900 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-100"
          >
            Your password was changed and every session signed out. Sign in with your new password.
          </p>
        )}
        <Card className="p-6">
          <LoginForm next={next ? safeNextPath(next) : undefined} />
          <p className="mt-4 text-center text-sm">
            <Link href="/forgot-password" className={authLinkClass}>
              Forgot password?
            </Link>
          </p>
        </Card>
        <p className="text-center text-xs text-zinc-600 dark:text-zinc-400">Demo: demo@example.com / demo-password</p>
      </div>
    </main>
  );
}
