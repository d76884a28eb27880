/**
 * URL-state helpers for dashboard links. Parameter names are case-insensitive in our grammar, so a
 * shared link may say `Page=3`: removing "page" must remove every spelling of it.
 */
export function withChanges(current: string, changes: Record<string, string | null>): URLSearchParams {
  const params = new URLSearchParams(current);
  const lower = Object.keys(changes).map((name) => name.toLowerCase());
  for (const name of [...params.keys()]) if (lower.includes(name.toLowerCase())) params.delete(name);
  for (const [name, value] of Object.entries(changes)) if (value !== null) params.set(name, value);
  return params;
}

/** A page's `searchParams` (repeated names as arrays) as a query string, for withChanges. */
export function queryStringOf(searchParams: Record<string, string | string[] | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(searchParams)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) params.append(name, v);
  }
  return params.toString();
}

/** A link to this page with some parameters changed (in any spelling) and the rest kept. */
export const hrefWith = (searchParams: Record<string, string | string[] | undefined>, changes: Record<string, string | null>) =>
  `?${withChanges(queryStringOf(searchParams), changes)}`;
