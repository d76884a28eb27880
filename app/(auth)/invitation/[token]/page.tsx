import type { Metadata } from 'next';
import { Card } from '@/components/ui/card';
import { invitationFor } from '@/lib/accounts';
import { MIN_PASSWORD_LENGTH } from '@/lib/identity';
import { ROLE_LABELS } from '@/lib/access';
import { InvitationForm } from './invitation-form';
import { LinkUnusable } from './link-unusable';

// no-referrer: the token is in this page's URL (proxy.ts sends the same policy as a header).
export const metadata: Metadata = { title: 'Your invitation · Publisher Portal', referrer: 'no-referrer' };

/** The page an invitation e-mail links to: which account and role, and the form that joins it. */
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invitation = await invitationFor(token);
  return (
    <main className="flex min-h-dvh items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm space-y-6">
        <div className="text-center">
          <p className="text-sm font-semibold tracking-wide text-accent-700 uppercase dark:text-accent-300">
            Publisher Portal
          </p>
          <h1 className="mt-2 text-2xl font-semibold">
            {!invitation
              ? 'This invitation link no longer works'
              : invitation.hasSignIn
                ? `Join ${invitation.accountName}`
                : 'Welcome! Choose your password'}
          </h1>
        </div>
        <Card className="p-6">
          {invitation ? (
            <InvitationForm
              token={token}
              accountName={invitation.accountName}
              role={ROLE_LABELS[invitation.role]}
              email={invitation.email}
              hasSignIn={invitation.hasSignIn}
              minLength={MIN_PASSWORD_LENGTH}
            />
          ) : (
            <LinkUnusable />
          )}
        </Card>
      </div>
    </main>
  );
}
