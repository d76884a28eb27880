'use client';

import { createContext, type ReactNode, useContext, useState } from 'react';

const AnnounceContext = createContext<((message: string) => void) | null>(null);

/**
 * One status line above a list of sites: an action's result is said there, because the site it was about may
 * leave the list with it (approved, it leaves the Pending tab; deleted, it is gone).
 */
export function SiteAnnouncer({ children }: { children: ReactNode }) {
  const [message, setMessage] = useState('');
  return (
    <AnnounceContext value={setMessage}>
      <p role="status" className="sr-only">
        {message}
      </p>
      {children}
    </AnnounceContext>
  );
}

/** The list's announcer, or else a status line of the caller's own (`fallback`). */
export const useAnnounce = (fallback: (message: string) => void) => useContext(AnnounceContext) ?? fallback;
