/**
 * The browser-facing security headers, written once: pages get them from proxy.ts (with a fresh nonce per
 * request, which Next.js puts on its own scripts), API responses from the route wrapper (lib/http/api-route.ts).
 */

/** Headers every API response carries: JSON and CSV are never sniffed as something else, nor cached. */
export const API_SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
} as const;

/** A nonce for one response's Content-Security-Policy: 128 random bits, base64. */
export function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/**
 * Scripts run only with this response's nonce (and what they load, 'strict-dynamic'); no inline script
 * without it. Inline `style` attributes stay allowed: charts and React set them, and they cannot run code.
 * The dev server's React needs eval for its debugging features; the production build does not.
 */
function contentSecurityPolicy(nonce: string, options: { dev: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Headers for every page and dashboard route: the CSP above, no framing, no sniffing, a strict referrer. */
export function pageSecurityHeaders(nonce: string, options: { dev: boolean }): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(nonce, options),
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()',
    // Browsers ignore it over plain HTTP (`npm start` on localhost), and honour it once served over HTTPS.
    ...(options.dev ? {} : { 'Strict-Transport-Security': 'max-age=63072000; includeSubDomains' }),
  };
}
