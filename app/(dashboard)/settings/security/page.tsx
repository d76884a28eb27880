import type { Metadata } from 'next';
import { Card } from '@/components/ui/card';
import { MIN_PASSWORD_LENGTH } from '@/lib/accounts';
import { requireUser } from '@/lib/dashboard/session';
import { ChangePasswordForm } from './change-password-form';

export const metadata: Metadata = { title: 'Security · Settings · Publisher Portal' };

/** Security of the signed-in account: its password. */
export default async function SecurityPage() {
  const user = await requireUser();
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold">Change password</h2>
      <p className="mt-1 mb-5 text-sm text-zinc-600 dark:text-zinc-400">
        For {user.email}. Changing it signs out every other session of your account; you stay signed in here, and we
        e-mail you a notice.
      </p>
      <ChangePasswordForm minLength={MIN_PASSWORD_LENGTH} />
    </Card>
  );
}
