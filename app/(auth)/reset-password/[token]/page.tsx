import type { Metadata } from 'next';
import Link from 'next/link';
import { AuthFrame, authLinkClass } from '@/components/layout/auth-frame';
import { MIN_PASSWORD_LENGTH, resetLinkWorks } from '@/lib/identity';
import { LinkExpired } from './link-expired';
import { ResetPasswordForm } from './reset-password-form';

// The URL holds the token: no Referer may carry it elsewhere (proxy.ts sends the header too).
export const metadata: Metadata = { title: 'Choose a new password · Publisher Portal', referrer: 'no-referrer' };

/** The page a reset link opens: the form while the link works (it is spent only by saving), else a way on. */
export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const works = await resetLinkWorks(token);
  return (
    <AuthFrame
      title="Choose a new password"
      footer={
        <Link href="/login" className={authLinkClass}>
          Back to sign in
        </Link>
      }
    >
      {works ? <ResetPasswordForm token={token} minLength={MIN_PASSWORD_LENGTH} /> : <LinkExpired />}
    </AuthFrame>
  );
}
