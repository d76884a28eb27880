/**
 * Field definitions shared by sortBy, Filter and FilterList. Each endpoint's fields are those of its row's
 * response schema (fieldsOf); the grammar matches names case-insensitively and always hands back the canonical
 * spelling, so services can switch on `def.name` without caring how the caller typed it.
 */
import type { z } from 'zod';

export interface FieldDef<Name extends string = string> {
  /** Canonical API name, e.g. "revenueAmount". */
  name: Name;
  /** Decides which Filter operators and values are accepted and how values bind in SQL. */
  type: 'string' | 'number' | 'date' | 'uuid';
}

/**
 * A row schema's fields as the grammar sees them, in the schema's order: numbers, UUIDs, date-times (compared
 * by their UTC day) and other text, enums of names included. A field of any other kind has no grammar type:
 * the module that asks for it fails to load, so that no one adds one that cannot be filtered without deciding how.
 */
export function fieldsOf<Shape extends z.ZodRawShape>(
  schema: z.ZodObject<Shape>,
): FieldDef<Extract<keyof Shape, string>>[] {
  return Object.entries(schema.shape).map(([name, field]) => ({
    name: name as Extract<keyof Shape, string>,
    type: grammarType(name, field),
  }));
}

function grammarType(name: string, field: z.core.$ZodType): FieldDef['type'] {
  let def = field._zod.def;
  if (def.type === 'nullable' || def.type === 'optional') def = (def as z.core.$ZodNullableDef).innerType._zod.def;
  if (def.type === 'number') return 'number';
  // An enum of names (a status) is text to the grammar: compared and searched as its values are written.
  if (def.type === 'enum' && Object.values((def as z.core.$ZodEnumDef).entries).every((v) => typeof v === 'string')) {
    return 'string';
  }
  if (def.type === 'string') {
    // z.string() has no format; z.uuid(), z.iso.datetime() and z.iso.date() name theirs.
    const { format } = def as z.core.$ZodStringFormatDef;
    if (format === 'uuid') return 'uuid';
    return format === 'datetime' || format === 'date' ? 'date' : 'string';
  }
  throw new Error(`The query grammar has no type for the field ${name} (a ${def.type}).`);
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
