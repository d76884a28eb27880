/**
 * Viewer countries. `COUNTRIES` is the set the demo data covers (the markets that matter for web games,
 * with a CPM tier and a traffic weight); `countryName` and `countryCodesMatching` know every ISO 3166-1
 * alpha-2 code, because real data may carry any of them.
 */

type CpmTier = 1 | 2 | 3;

export interface Country {
  code: string;
  name: string;
  /** 1 = premium (US, Nordics…), 2 = mid, 3 = emerging markets with low CPMs and lots of traffic. */
  tier: CpmTier;
  /** Relative share of a typical web game's traffic; only ratios matter. */
  weight: number;
}

const displayNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
// Enumerating AA..ZZ costs ~20 ms, so it happens on first use rather than on import.
let table: ReadonlyMap<string, string> | undefined;

/**
 * Codes Intl knows that are not countries: user-assigned ranges (AA, QM–QZ, XA–XZ, ZZ) and ISO's
 * "exceptionally reserved" entries. XK (Kosovo) is user-assigned but ad networks report it, so it stays.
 */
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'XA', 'XB', 'ZZ', 'AC', 'CP', 'CQ', 'DG', 'EA', 'IC', 'TA']);

function regionTable(): ReadonlyMap<string, string> {
  if (table) return table;
  const entries = new Map<string, string>();
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      if (NOT_COUNTRIES.has(code)) continue;
      const name = displayNames.of(code);
      if (!name || name === code) continue;
      // Deprecated codes (UK, DD, SU, YU…) canonicalise to their successor; keep only the current one.
      if (new Intl.Locale(`und-${code}`).region !== code) continue;
      entries.set(code, name);
    }
  }
  return (table = entries);
}

/** English name of an ISO 3166-1 alpha-2 code (any letter case), or null when it is not a country code. */
export function countryName(code: string): string | null {
  if (!/^[A-Za-z]{2}$/.test(code)) return null;
  return regionTable().get(code.toUpperCase()) ?? null;
}

/** Every country as [code, English name], by name: for a picker. */
export const countryList = (): [code: string, name: string][] =>
  [...regionTable()].sort(([, a], [, b]) => a.localeCompare(b, 'en'));

// Accents are ignored so that "cote" finds Côte d’Ivoire and "aland" finds Åland Islands.
function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

let folded: ReadonlyArray<readonly [code: string, haystack: string]> | undefined;

/** Every country code whose code or English name contains `search`, case- and accent-insensitively. */
export function countryCodesMatching(search: string): string[] {
  folded ??= [...regionTable()].map(([code, name]) => [code, `${code.toLowerCase()}\u0000${fold(name)}`] as const);
  const needle = fold(search.trim());
  // The separator keeps a search from matching across the code and the name ("sb" in "us\0united…").
  if (needle.includes('\u0000')) return [];
  return folded.filter(([, haystack]) => haystack.includes(needle)).map(([code]) => code);
}

const TIERS: Record<CpmTier, Record<string, number>> = {
  1: {
    US: 16,
    GB: 5,
    CA: 3.5,
    AU: 2,
    NZ: 0.5,
    DE: 4.5,
    NL: 1.5,
    SE: 1,
    NO: 0.6,
    DK: 0.6,
    CH: 0.6,
    AT: 0.6,
    BE: 0.8,
    FI: 0.5,
    IE: 0.4,
  },
  2: {
    FR: 4,
    ES: 3,
    IT: 3,
    JP: 2.5,
    KR: 1.2,
    PL: 2.2,
    PT: 0.9,
    CZ: 0.7,
    SG: 0.5,
    TW: 0.9,
    IL: 0.5,
    AE: 0.6,
    SA: 1,
    HU: 0.5,
    RO: 0.8,
    GR: 0.5,
  },
  3: {
    BR: 7,
    IN: 8,
    ID: 4,
    PH: 3.5,
    VN: 2.5,
    TR: 3,
    MX: 3.5,
    EG: 1.5,
    AR: 1.5,
    CO: 1.2,
    TH: 1.8,
    MY: 1.2,
    UA: 1,
    PK: 1.2,
    NG: 0.8,
    ZA: 0.7,
    MA: 0.6,
  },
};

export const COUNTRIES: readonly Country[] = Object.entries(TIERS).flatMap(([tier, weights]) =>
  Object.entries(weights).map(([code, weight]) => ({
    code,
    name: displayNames.of(code) ?? code,
    tier: Number(tier) as CpmTier,
    weight,
  })),
);
