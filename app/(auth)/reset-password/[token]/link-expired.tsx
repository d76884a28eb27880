import Link from 'next/link';
import { authLinkClass } from '@/components/layout/auth-frame';

/** A reset link that was used, replaced by a newer one, or is older than 60 minutes. */
export function LinkExpired() {
  return (
    <div role="alert" className="space-y-3 text-sm text-zinc-800 dark:text-zinc-200">
      <p className="font-medium">This link no longer works.</p>
      <p>
        A reset link works once, within 60 minutes, and only the newest one you asked for. Ask for a new link and use it
        soon.
      </p>
      <p>
        <Link href="/forgot-password" className={authLinkClass}>
          Ask for a new link
        </Link>
      </p>
    </div>
  );
}
