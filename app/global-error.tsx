'use client';

import './globals.css';
import { StandalonePageError } from '@/components/layout/page-error';

/** A failure of the root layout itself: this replaces it, so it brings its own <html> and <body>. */
export default function GlobalError(props: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body>
        <StandalonePageError {...props} />
      </body>
    </html>
  );
}
