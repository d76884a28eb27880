/**
 * URL-state helpers for client components. Parameter names are case-insensitive in our grammar, so a
 * shared link may say `Page=3`: removing "page" must remove every spelling of it.
 */
export function withChanges(current: string, changes: Record<string, string | null>): URLSearchParams {
  const params = new URLSearchParams(current);
  const lower = Object.keys(changes).map((name) => name.toLowerCase());
  for (const name of [...params.keys()]) if (lower.includes(name.toLowerCase())) params.delete(name);
  for (const [name, value] of Object.entries(changes)) if (value !== null) params.set(name, value);
  return params;
}
