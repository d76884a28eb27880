import type { Metadata } from 'next';
import { Card } from '@/components/ui/card';
import { invitationFor, MIN_PASSWORD_LENGTH } from '@/lib/accounts';
import { InvitationForm } from './invitation-form';
import { LinkUnusable } from './link-unusable';

// no-referrer: the token is in this page's URL (proxy.ts sends the same policy as a header).
export const metadata: Metadata = { title: 'Set your password · Publisher Portal', referrer: 'no-referrer' };

/** The page an invitation e-mail links to: whose account it is, and the form that sets its first password. */
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
            {invitation ? 'Welcome! Choose your password' : 'This invitation link no longer works'}
          </h1>
        </div>
        <Card className="p-6">
          {invitation ? (
            <InvitationForm
              token={token}
              name={invitation.name}
              email={invitation.email}
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
