/** `siteIds`: a comma-separated list of site uuids. Absent or empty means "all sites in scope". */
import { ValidationError, type FieldError } from '@/lib/shared/errors';

// Any version and variant: ids come from our own database, which is not bound to one uuid flavour.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(s: string): boolean {
  return UUID.test(s);
}

/**
 * Lower-cased, de-duplicated ids in the order given, or null when none were given. Every malformed item is
 * reported, so a pasted list can be fixed in one go; the database never sees a string that is not a uuid.
 */
export function parseSiteIds(raw: string): string[] | null {
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const errors: FieldError[] = items
    .filter((s) => !isUuid(s))
    .map((s) => ({
      parameter: 'siteIds',
      detail: `${JSON.stringify(s)} is not a valid site id; expected a uuid like 3f2504e0-4f89-41d3-9a0c-0305e82c3301`,
    }));
  if (errors.length > 0) throw new ValidationError(errors);
  const ids = [...new Set(items.map((s) => s.toLowerCase()))];
  return ids.length > 0 ? ids : null;
}
