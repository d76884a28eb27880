import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { AuthFrame, authLinkClass } from '@/components/layout/auth-frame';
import { currentPerson, safeNextPath } from '@/lib/dashboard/session';
import { LoginForm } from './login-form';

export const metadata: Metadata = { title: 'Sign in · Publisher Portal' };

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string; reset?: string }>;
}) {
  const { next, reset } = await searchParams;
  if (await currentPerson()) redirect(safeNextPath(next));
  return (
    <AuthFrame
      title="Sign in to your account"
      notice={
        reset === 'done' && (
          <p
            role="status"
            className="rounded-md border border-emerald-300 bg-emerald-50 px-4 py-3 text-sm text-emerald-900 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-100"
          >
            Your password was changed and every session signed out. Sign in with your new password.
          </p>
        )
      }
      footer={<span className="text-xs text-zinc-600 dark:text-zinc-400">Demo: demo@example.com / demo-password</span>}
    >
      <LoginForm next={next ? safeNextPath(next) : undefined} />
      <p className="mt-4 text-center text-sm">
        <Link href="/forgot-password" className={authLinkClass}>
          Forgot password?
        </Link>
      </p>
    </AuthFrame>
  );
}
