import type { Metadata } from 'next';
import Link from 'next/link';
import { AuthFrame, authLinkClass } from '@/components/layout/auth-frame';
import { ForgotPasswordForm } from './forgot-password-form';

export const metadata: Metadata = { title: 'Forgot password · Publisher Portal' };

export default function ForgotPasswordPage() {
  return (
    <AuthFrame
      title="Reset your password"
      footer={
        <>
          Remembered it?{' '}
          <Link href="/login" className={authLinkClass}>
            Sign in
          </Link>
        </>
      }
    >
      <ForgotPasswordForm />
    </AuthFrame>
  );
}
