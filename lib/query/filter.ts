/**
 * The `Filter` and `FilterList` grammars, AdSense/GA style:
 *
 *   filter  = orGroup *( ";" orGroup )      ";" is AND
 *   orGroup = term *( "," term )            "," is OR and binds tighter: a==1,b==2;c==3 = (a OR b) AND c
 *   term    = field op value                ops: == != > >= < <= =@ (contains) !@ (does not contain)
 *
 * A backslash makes the next character literal inside values (`\,` `\;` `\\`). Every error names the
 * 0-based character position, because a filter is typed by hand and the caller needs to find the mistake.
 */
import { ValidationError, type FieldError } from '@/lib/shared/errors';
import { isDay } from './dates';
import { fieldLookup, fieldNames, type FieldDef } from './fields';
import { isUuid } from './site-ids';

export type FilterOp = '==' | '!=' | '>' | '>=' | '<' | '<=' | '=@' | '!@';

export interface FilterTerm {
  /** Canonical field name. */
  field: string;
  type: FieldDef['type'];
  op: FilterOp;
  /** A number for number fields; the unescaped text otherwise (uuids lower-cased, dates YYYY-MM-DD). */
  value: string | number;
}

/** AND of ORs: [[a, b], [c]] means (a OR b) AND c. Empty means no filtering. */
export type FilterExpr = FilterTerm[][];

/**
 * Bound what one request can ask the database to evaluate per row: a Filter's terms (each a comparison,
 * some a division), and a FilterList's values (one hashed lookup per field, however many values).
 */
export const MAX_FILTER_TERMS = 32;
export const MAX_FILTER_LIST_VALUES = 256;

// Two-character operators first, so ">=" is never read as ">" followed by a value "=...".
const OPS: readonly FilterOp[] = ['==', '!=', '>=', '<=', '=@', '!@', '>', '<'];
const ORDERED: readonly FilterOp[] = ['==', '!=', '>', '>=', '<', '<='];
const OPS_BY_TYPE: Record<FieldDef['type'], readonly FilterOp[]> = {
  string: ['==', '!=', '>', '>=', '<', '<=', '=@', '!@'],
  number: ORDERED,
  date: ORDERED,
  uuid: ['==', '!='],
};
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const FIELD_CHAR = /[A-Za-z0-9_.]/;
const WHITESPACE = /\s/;

const fail = (parameter: string, detail: string) => new ValidationError([{ parameter, detail }]);

/** What sits at `pos`, quoted, for "got …" in messages. */
const found = (input: string, pos: number) =>
  pos < input.length ? JSON.stringify(input[pos]) : 'the end of the input';

interface RawValue {
  text: string;
  /** Position of the value's first kept character (or of its end when empty). */
  start: number;
  /** Position of the separator that ended the value, or input.length. */
  end: number;
}

/**
 * Reads an escaped value from `pos` up to the first unescaped character in `stops`. Unescaped
 * whitespace at either end is dropped; escaped whitespace (`\ `) is kept.
 */
function readValue(input: string, pos: number, stops: string, parameter: string): RawValue {
  const chars: { c: string; at: number; escaped: boolean }[] = [];
  let i = pos;
  for (; i < input.length && !stops.includes(input[i]); i++) {
    if (input[i] === '\\') {
      if (i + 1 >= input.length) {
        throw fail(
          parameter,
          `trailing backslash at position ${i}: a backslash must be followed by the character it escapes`,
        );
      }
      chars.push({ c: input[++i], at: i - 1, escaped: true });
    } else {
      chars.push({ c: input[i], at: i, escaped: false });
    }
  }
  const blank = (k: number) => !chars[k].escaped && WHITESPACE.test(chars[k].c);
  let a = 0;
  let b = chars.length;
  while (a < b && blank(a)) a++;
  while (b > a && blank(b - 1)) b--;
  const kept = chars.slice(a, b);
  return { text: kept.map((ch) => ch.c).join(''), start: kept[0]?.at ?? i, end: i };
}

/** Checks a value against the field's type; returns the typed value or an error detail. */
function typedValue(def: FieldDef, text: string): { value: string | number } | { error: string } {
  switch (def.type) {
    case 'number': {
      const n = NUMBER.test(text) ? Number(text) : NaN;
      return Number.isFinite(n)
        ? { value: n }
        : { error: `expected a number for field "${def.name}", got ${JSON.stringify(text)}` };
    }
    case 'date':
      return isDay(text)
        ? { value: text }
        : { error: `expected a date (YYYY-MM-DD) for field "${def.name}", got ${JSON.stringify(text)}` };
    case 'uuid':
      return isUuid(text)
        ? { value: text.toLowerCase() }
        : { error: `expected a uuid for field "${def.name}", got ${JSON.stringify(text)}` };
    case 'string':
      return { value: text };
  }
}

export function parseFilter(input: string, fields: readonly FieldDef[]): FilterExpr {
  const P = 'Filter';
  if (input.trim() === '')
    throw fail(P, 'is empty; expected at least one term such as country==US (omit Filter to filter nothing)');
  const lookup = fieldLookup(fields);
  const expr: FilterExpr = [[]];
  let terms = 0;
  let pos = 0;
  const skipSpace = () => {
    while (pos < input.length && WHITESPACE.test(input[pos])) pos++;
  };

  for (;;) {
    skipSpace();
    const fieldStart = pos;
    while (pos < input.length && FIELD_CHAR.test(input[pos])) pos++;
    const name = input.slice(fieldStart, pos);
    if (name === '') {
      throw fail(P, `expected a term (field op value) at position ${fieldStart}, got ${found(input, fieldStart)}`);
    }
    const def = lookup(name);
    if (!def)
      throw fail(P, `unknown field ${JSON.stringify(name)} at position ${fieldStart}; allowed: ${fieldNames(fields)}`);

    skipSpace();
    const op = OPS.find((o) => input.startsWith(o, pos));
    if (!op) {
      const hint = input[pos] === '=' ? ' (use == for equality)' : '';
      throw fail(
        P,
        `expected an operator (${OPS.join(' ')}) after field "${def.name}" at position ${pos}, got ${found(input, pos)}${hint}`,
      );
    }
    const allowedOps = OPS_BY_TYPE[def.type];
    if (!allowedOps.includes(op)) {
      throw fail(
        P,
        `operator "${op}" at position ${pos} does not apply to ${def.type} field "${def.name}"; use one of ${allowedOps.join(' ')}`,
      );
    }
    pos += op.length;

    const raw = readValue(input, pos, ',;', P);
    if (raw.text === '') throw fail(P, `expected a value after "${op}" at position ${pos}`);
    const typed = typedValue(def, raw.text);
    if ('error' in typed) throw fail(P, `${typed.error} at position ${raw.start}`);

    if (++terms > MAX_FILTER_TERMS) throw fail(P, `has more than ${MAX_FILTER_TERMS} terms`);
    expr[expr.length - 1].push({ field: def.name, type: def.type, op, value: typed.value });

    pos = raw.end;
    if (pos >= input.length) return expr;
    if (input[pos] === ';') expr.push([]);
    pos++; // past the separator; a term must follow it
  }
}

/**
 * `FilterList[field]=a,b` entries: each is "field equals any of the values", entries are AND-ed. Values
 * split on unescaped commas; empty items (a trailing comma) are dropped, but an entry needs one value.
 * Every entry is checked, so all mistakes come back in one 400.
 */
export function parseFilterList(
  entries: readonly { key: string; value: string }[],
  fields: readonly FieldDef[],
): FilterExpr {
  const lookup = fieldLookup(fields);
  const expr: FilterExpr = [];
  const errors: FieldError[] = [];
  for (const { key, value } of entries) {
    const def = lookup(key);
    if (!def) {
      errors.push({
        parameter: `FilterList[${key}]`,
        detail: `unknown field ${JSON.stringify(key)}; allowed: ${fieldNames(fields)}`,
      });
      continue;
    }
    const P = `FilterList[${def.name}]`;
    try {
      const group: FilterTerm[] = [];
      for (let pos = 0; pos <= value.length;) {
        const raw = readValue(value, pos, ',', P);
        pos = raw.end + 1;
        if (raw.text === '') continue;
        const typed = typedValue(def, raw.text);
        if ('error' in typed) throw fail(P, `${typed.error} at position ${raw.start} of the value`);
        group.push({ field: def.name, type: def.type, op: '==', value: typed.value });
      }
      if (group.length === 0) throw fail(P, `needs at least one value, e.g. FilterList[${def.name}]=a,b`);
      expr.push(group);
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
      errors.push(...(e.errors ?? []));
    }
  }
  if (errors.length > 0) throw new ValidationError(errors);
  if (expr.reduce((n, g) => n + g.length, 0) > MAX_FILTER_LIST_VALUES) {
    throw fail('FilterList', `has more than ${MAX_FILTER_LIST_VALUES} values in all`);
  }
  return expr;
}
