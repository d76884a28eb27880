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

/** A parameter's value(s) under any letter-case spelling of its name, as the API reads names. */
export function paramOf(searchParams: Record<string, string | string[] | undefined>, name: string): string | string[] | undefined {
  const wanted = name.toLowerCase();
  const values = Object.entries(searchParams)
    .filter(([key]) => key.toLowerCase() === wanted)
    .flatMap(([, value]) => (Array.isArray(value) ? value : value === undefined ? [] : [value]));
  return values.length === 0 ? undefined : values.length === 1 ? values[0] : values;
}

/** The filter bar's state (`from`, `to`, `sites`, in any spelling) as `?from=&to=&sites=`, for links between views. */
export function carriedFilters(search: string): string {
  const given = new URLSearchParams(search);
  const carried = new URLSearchParams();
  for (const name of ['from', 'to', 'sites']) {
    const value = [...given].find(([key]) => key.toLowerCase() === name)?.[1];
    if (value) carried.set(name, value);
  }
  return carried.size > 0 ? `?${carried}` : '';
}
