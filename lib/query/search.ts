/** The `Search` parameter: free text matched case-insensitively (filter-sql.ts turns it into SQL). */
import { badRequest } from '@/lib/shared/errors';

export const SEARCH_MAX_LENGTH = 200;

/** The `Search` parameter, trimmed; null when absent or blank. */
export function parseSearch(raw: string): string | null {
  const search = raw.trim();
  if (!search) return null;
  if ([...search].length > SEARCH_MAX_LENGTH) {
    throw badRequest('Search', `must be at most ${SEARCH_MAX_LENGTH} characters, got ${[...search].length}`);
  }
  return search;
}
