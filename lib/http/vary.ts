/**
 * Adds request headers to a response's Vary, keeping what is there: Next.js appends its own values to ours,
 * and its compression (under `npm start`) adds Accept-Encoding, so no one may overwrite the header.
 */
export function varyOn(headers: Headers, ...names: string[]): void {
  const present = (headers.get('Vary') ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const lower = new Set(present.map((name) => name.toLowerCase()));
  if (lower.has('*')) return;
  const added = names.filter((name) => !lower.has(name.toLowerCase()));
  if (added.length) headers.set('Vary', [...present, ...added].join(', '));
}
