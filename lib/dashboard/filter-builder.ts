/**
 * The Countries view's filter builder: chips (field, operator, value) that read and write the by-country
 * `Filter` grammar (lib/query/filter.ts), checked in the browser by the API's own parser and field list, so
 * a chip never writes what the API would refuse and the raw expression stays the one source of truth.
 */
import { countryName } from '@/lib/shared/countries';
import { ValidationError } from '@/lib/shared/errors';
import { formatInt } from '@/lib/shared/format';
import { parseFilter, type FilterExpr, type FilterOp, type FilterTerm } from '@/lib/query/filter';
import { byCountryFields } from '@/lib/reports/browser';
import { BY_COUNTRY_FIELD, METRICS, type Metric } from './metrics';

export interface BuilderField {
  /** The grammar's name of the field. */
  name: string;
  label: string;
  unit: Metric['unit'] | 'country';
}

export const FILTER_FIELDS: BuilderField[] = [
  ...METRICS.map((m) => ({ name: BY_COUNTRY_FIELD[m.id], label: m.label, unit: m.unit })),
  { name: 'country', label: 'Country', unit: 'country' },
];

const fieldOf = (name: string) => FILTER_FIELDS.find((f) => f.name === name)!;

/** The operators a chip offers, as people read them; a country is one or not. */
const OPERATORS: Record<'number' | 'country', { op: FilterOp; label: string }[]> = {
  number: [
    { op: '>', label: '>' },
    { op: '>=', label: '≥' },
    { op: '<', label: '<' },
    { op: '<=', label: '≤' },
    { op: '==', label: '=' },
    { op: '!=', label: '≠' },
  ],
  country: [
    { op: '==', label: 'is' },
    { op: '!=', label: 'is not' },
  ],
};
export const operatorsOf = (field: BuilderField) => OPERATORS[field.unit === 'country' ? 'country' : 'number'];

/** The chips of a Filter: one per AND group (an OR group is one chip), or why the expression cannot be read. */
export function chipsOf(filter: string): { groups: FilterExpr } | { error: string } {
  if (!filter.trim()) return { groups: [] };
  try {
    return { groups: parseFilter(filter, byCountryFields) };
  } catch (err) {
    if (err instanceof ValidationError) return { error: err.errors.map((e) => e.detail).join('; ') };
    throw err;
  }
}

/** A term as a chip says it: "eCPM > $2", "Fill rate ≥ 85%", "Country is Germany". */
export function describeTerm(term: FilterTerm): string {
  const field = fieldOf(term.field);
  const op = operatorsOf(field).find((o) => o.op === term.op)?.label ?? term.op;
  const value = Number(term.value);
  const shown =
    field.unit === 'country'
      ? (countryName(String(term.value)) ?? String(term.value))
      : field.unit === 'usd'
        ? `$${term.value}`
        : field.unit === 'ratio'
          ? `${Number((value * 100).toPrecision(12))}%`
          : formatInt(value);
  return `${field.label} ${op} ${shown}`;
}

const escapeValue = (text: string) => text.replace(/[\\,;]/g, '\\$&');

/** Groups back into the grammar: "," inside a group (OR), ";" between groups (AND). */
export const filterOf = (groups: FilterExpr): string =>
  groups.map((group) => group.map((t) => `${t.field}${t.op}${escapeValue(String(t.value))}`).join(',')).join(';');

/**
 * A new chip from what was typed, or what is wrong with it: money in dollars ("$2" or "2"), counts with or
 * without separators, fill rate in percent (85 means 0.85), a country by its code.
 */
export function termFrom(fieldName: string, op: FilterOp, typed: string): FilterTerm | { error: string } {
  const field = fieldOf(fieldName);
  let value = typed.trim();
  if (field.unit !== 'country') {
    const number = Number(value.replace(/[$,%\s]/g, ''));
    if (value === '' || !Number.isFinite(number)) return { error: `Enter a number for ${field.label}` };
    value = String(field.unit === 'ratio' ? Number((number / 100).toPrecision(12)) : number);
  } else if (countryName(value)) {
    value = value.toUpperCase();
  } else {
    return { error: 'Choose a country' };
  }
  const parsed = chipsOf(`${field.name}${op}${escapeValue(value)}`);
  return 'error' in parsed ? parsed : parsed.groups[0][0];
}
