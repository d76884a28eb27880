import { env } from '@/lib/platform/env';

/**
 * An absolute link to a page of the portal, for e-mail: PUBLIC_URL, else Vercel's production domain, else
 * http://localhost:3000 (what `npm start` serves). Never built from a request's Host header, which a caller
 * may set to a domain of its own (OWASP: password reset poisoning).
 */
export function publicUrl(path: string): string {
  const { PUBLIC_URL, VERCEL_PROJECT_PRODUCTION_URL } = env();
  const origin =
    PUBLIC_URL?.replace(/\/$/, '') ??
    (VERCEL_PROJECT_PRODUCTION_URL ? `https://${VERCEL_PROJECT_PRODUCTION_URL}` : 'http://localhost:3000');
  return new URL(path, origin).toString();
}
