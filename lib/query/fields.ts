/**
 * Field definitions shared by sortBy, Filter and FilterList. Each endpoint declares the fields of its row
 * type once; the grammar matches names case-insensitively and always hands back the canonical spelling, so
 * services can switch on `def.name` without caring how the caller typed it.
 */
export interface FieldDef {
  /** Canonical API name, e.g. "revenueAmount". */
  name: string;
  /** Decides which Filter operators and values are accepted and how values bind in SQL. */
  type: 'string' | 'number' | 'date' | 'uuid';
}

/** Returns a case-insensitive finder over `fields`. Build it once per parse, not once per lookup. */
export function fieldLookup(fields: readonly FieldDef[]): (name: string) => FieldDef | undefined {
  const byLower = new Map(fields.map((f) => [f.name.toLowerCase(), f]));
  return (name) => byLower.get(name.toLowerCase());
}

/** "country, revenueAmount, …" for error details that tell the caller what would have worked. */
export function fieldNames(fields: readonly FieldDef[]): string {
  return fields.map((f) => f.name).join(', ');
}
