/**
 * Query-string access with the rules every endpoint shares: parameter names are case-insensitive, a name
 * given twice must not contradict itself, FilterList entries are collected from their bracket/dot keys,
 * and unknown names are rejected with advice instead of being silently ignored (a typo like `pagesize2`
 * would otherwise return a plausible but wrong page).
 */
import { ValidationError, type FieldError } from '@/lib/shared/errors';

/** Canonical spellings, used in error messages whatever casing the caller sent. */
const KNOWN_NAMES = [
  'page',
  'pageSize',
  'sortBy',
  'sortDirection',
  'Search',
  'Filter',
  'FilterList',
  'siteIds',
  'fromDate',
  'toDate',
  'apiKey',
] as const;

const canonicalByLower = new Map<string, string>(KNOWN_NAMES.map((n) => [n.toLowerCase(), n]));
const canonical = (name: string) => canonicalByLower.get(name.toLowerCase()) ?? name;

/** `FilterList[field]` or `FilterList.field`; anything else starting with `FilterList[`/`.` is malformed. */
const FILTER_LIST_KEY = /^filterlist(?:\[([^[\]]+)\]|\.([^[\]]+))$/i;
const FILTER_LIST_LIKE = /^filterlist(?:$|[[.])/i;

export type QueryInput = URLSearchParams | Record<string, string | string[] | undefined>;

interface Given {
  /** The spelling the caller used first, for quoting it back. */
  name: string;
  value: string;
}

export class QueryParams {
  private constructor(
    /** Plain parameters keyed by lower-cased name. */
    private readonly plain: Map<string, Given>,
    /** FilterList entries keyed by lower-cased field; `name` holds the raw field. */
    private readonly filterList: Map<string, Given>,
    /** Names like `FilterList` or `FilterList[]` that carry no field; reported when FilterList is read. */
    private readonly malformedFilterList: string[],
  ) {}

  /** Accepts a URL's searchParams or Next.js page `searchParams` (repeated names arrive as arrays). */
  static from(input: QueryInput): QueryParams {
    const pairs: [string, string][] =
      input instanceof URLSearchParams
        ? [...input.entries()]
        : Object.entries(input).flatMap(([name, v]) =>
            v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((x): [string, string] => [name, x]),
          );

    const plain = new Map<string, Given>();
    const filterList = new Map<string, Given>();
    const malformed: string[] = [];
    const conflicts = new Map<string, FieldError>();

    // Repeats with the same value are harmless (links built by appending); differing ones are ambiguous.
    // Conflicts are named after the spelling seen first.
    const put = (map: Map<string, Given>, key: string, given: Given, parameter: (first: Given) => string) => {
      const prev = map.get(key);
      if (!prev) map.set(key, given);
      else if (prev.value !== given.value && !conflicts.has(parameter(prev).toLowerCase())) {
        conflicts.set(parameter(prev).toLowerCase(), {
          parameter: parameter(prev),
          detail: `given more than once with different values (${JSON.stringify(prev.value)} and ${JSON.stringify(given.value)}); give it once`,
        });
      }
    };

    for (const [name, value] of pairs) {
      // PostgreSQL text cannot hold NUL; refuse it here rather than fail deep inside a query.
      if (name.includes('\0') || value.includes('\0')) {
        throw new ValidationError([
          { parameter: canonical(name.replaceAll('\0', '')), detail: 'must not contain NUL characters' },
        ]);
      }
      const m = FILTER_LIST_KEY.exec(name);
      if (m) {
        const field = m[1] ?? m[2];
        put(filterList, field.toLowerCase(), { name: field, value }, (first) => `FilterList[${first.name}]`);
      } else if (FILTER_LIST_LIKE.test(name)) {
        malformed.push(name);
      } else {
        put(plain, name.toLowerCase(), { name, value }, (first) => canonical(first.name));
      }
    }
    if (conflicts.size > 0) throw new ValidationError([...conflicts.values()]);
    return new QueryParams(plain, filterList, malformed);
  }

  /** The value of a parameter, matched case-insensitively; undefined when absent. */
  get(name: string): string | undefined {
    return this.plain.get(name.toLowerCase())?.value;
  }

  /** `FilterList[field]=value` entries with the raw field as given (resolve it with `parseFilterList`). */
  filterListEntries(): { key: string; value: string }[] {
    if (this.malformedFilterList.length > 0) {
      throw new ValidationError(
        this.malformedFilterList.map((name) => ({
          parameter: 'FilterList',
          detail: `${JSON.stringify(name)} names no field; write FilterList[field]=value or FilterList.field=value, e.g. FilterList[country]=US,DE`,
        })),
      );
    }
    return [...this.filterList.values()].map((g) => ({ key: g.name, value: g.value }));
  }

  /**
   * Rejects every parameter this endpoint does not take. `allowed` holds canonical names
   * (FilterList entries count as "FilterList").
   */
  assertOnly(allowed: readonly string[]): void {
    const ok = new Set(allowed.map((n) => n.toLowerCase()));
    const accepts =
      allowed.length > 0 ? `this endpoint accepts: ${allowed.join(', ')}` : 'this endpoint takes no query parameters';
    const errors: FieldError[] = [];

    for (const { name } of this.plain.values()) {
      if (!ok.has(name.toLowerCase())) {
        errors.push({
          parameter: canonical(name),
          detail: `unknown query parameter ${JSON.stringify(name)}; ${accepts}${advice(name, ok)}`,
        });
      }
    }
    const filterListNames = [
      ...[...this.filterList.values()].map((g) => `FilterList[${g.name}]`),
      ...this.malformedFilterList,
    ];
    if (filterListNames.length > 0 && !ok.has('filterlist')) {
      errors.push({
        parameter: 'FilterList',
        detail: `unknown query parameter ${JSON.stringify(filterListNames[0])}; ${accepts}`,
      });
    }
    if (errors.length > 0) throw new ValidationError(errors);
  }
}

/** Points callers of the wrong endpoint at what does work there. */
function advice(name: string, ok: Set<string>): string {
  const lower = name.toLowerCase();
  if (lower === 'apikey') {
    return '. API keys belong in the X-Api-Key header or in Authorization: Bearer <key>, never in the URL';
  }
  if (!ok.has('filter')) return '';
  if (lower === 'siteids') return '. To limit sites here, use Filter instead, e.g. Filter=gameId==<id>';
  if (lower === 'fromdate') return '. To limit days here, use Filter instead, e.g. Filter=createdAt>=2026-01-01';
  if (lower === 'todate') return '. To limit days here, use Filter instead, e.g. Filter=createdAt<=2026-01-31';
  return '';
}
