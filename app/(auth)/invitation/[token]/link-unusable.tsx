import Link from 'next/link';

/** One page for a used, expired, superseded or unknown link: which it was would help only a guesser. */
export function LinkUnusable() {
  return (
    <div className="space-y-3 text-sm text-zinc-700 dark:text-zinc-300">
      <p>
        An invitation link works once, for 72 hours, and only the newest one sent to you does. This one has been used,
        has expired, or was replaced by a newer invitation.
      </p>
      <p>If you already chose your password, sign in. Otherwise ask your contact at the portal for a new invitation.</p>
      <Link
        href="/login"
        className="inline-block font-medium text-accent-700 underline underline-offset-2 dark:text-accent-300"
      >
        Go to sign in
      </Link>
    </div>
  );
}
