import type { Metadata } from 'next';
import { Card } from '@/components/ui/card';
import { listSessions, MIN_PASSWORD_LENGTH, mustSetUpTwoFactor, recoveryCodesLeft } from '@/lib/identity';
import { currentSessionToken, requirePerson } from '@/lib/dashboard/session';
import { ChangePasswordForm } from './change-password-form';
import { SessionsList } from './sessions-list';
import { TwoFactorPanel } from './two-factor-panel';

export const metadata: Metadata = { title: 'Security · Settings · Publisher Portal' };

/** Security of the signed-in person: their password and two-factor sign-in. */
export default async function SecurityPage({ searchParams }: { searchParams: Promise<{ setup?: string }> }) {
  const user = await requirePerson(undefined, { duringTwoFactorSetup: true });
  const { setup } = await searchParams;
  const required = user.memberships.some((m) => m.requiresTwoFactor);
  return (
    <div className="space-y-6">
      {setup === 'two-factor' && mustSetUpTwoFactor(user) && (
        <p
          role="status"
          className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-600 dark:bg-amber-950 dark:text-amber-100"
        >
          An account of yours requires two-factor sign-in. Turn it on below to go on.
        </p>
      )}
      <Card className="p-6">
        <h2 className="text-lg font-semibold">Where you’re signed in</h2>
        <p className="mt-1 mb-3 text-sm text-zinc-600 dark:text-zinc-400">
          End a session you do not recognise; “Sign out everywhere” at the top ends them all.
        </p>
        <SessionsList
          sessions={(await listSessions(user.principal, await currentSessionToken())).map((s) => ({
            ...s,
            signedInAt: s.signedInAt.toISOString(),
            lastSeenAt: s.lastSeenAt.toISOString(),
          }))}
        />
      </Card>
      <Card className="p-6">
        <h2 className="text-lg font-semibold">Two-factor sign-in</h2>
        <p className="mt-1 mb-5 text-sm text-zinc-600 dark:text-zinc-400">
          A code from an app on your phone (Google Authenticator, 1Password, Authy…) as well as your password.
        </p>
        <TwoFactorPanel
          enabled={user.twoFactor}
          codesLeft={user.twoFactor ? await recoveryCodesLeft(user.personId) : 0}
          required={required}
        />
      </Card>
      <Card className="p-6">
        <h2 className="text-lg font-semibold">Change password</h2>
        <p className="mt-1 mb-5 text-sm text-zinc-600 dark:text-zinc-400">
          For {user.email}. Changing it signs out every other session of your account; you stay signed in here, and we
          e-mail you a notice.
        </p>
        <ChangePasswordForm minLength={MIN_PASSWORD_LENGTH} />
      </Card>
    </div>
  );
}
