import { describe, expect, it } from 'vitest';
import { COUNTRIES, countryCodesMatching, countryName } from '@/lib/shared/countries';

describe('COUNTRIES', () => {
  it('lists 45–50 distinct countries in three CPM tiers, with names and weights', () => {
    expect(COUNTRIES.length).toBeGreaterThanOrEqual(45);
    expect(COUNTRIES.length).toBeLessThanOrEqual(50);
    expect(new Set(COUNTRIES.map((c) => c.code)).size).toBe(COUNTRIES.length);
    for (const c of COUNTRIES) {
      expect(c.name).toBe(countryName(c.code));
      expect(c.weight).toBeGreaterThan(0);
    }
    expect(new Set(COUNTRIES.map((c) => c.tier))).toEqual(new Set([1, 2, 3]));
    expect(COUNTRIES.find((c) => c.code === 'US')?.tier).toBe(1);
    expect(COUNTRIES.find((c) => c.code === 'IN')?.tier).toBe(3);
  });
});

describe('countryName', () => {
  it('names any current ISO 3166-1 alpha-2 code, in any letter case', () => {
    expect(countryName('US')).toBe('United States');
    expect(countryName('de')).toBe('Germany');
    expect(countryName('AQ')).toBe('Antarctica'); // not in COUNTRIES
  });

  it.each(['ZZ', 'AA', 'EU', 'UK', 'DD', 'USA', 'U', '', '1A'])('returns null for %j', (code) => {
    expect(countryName(code)).toBeNull();
  });
});

describe('countryCodesMatching', () => {
  it('matches codes and English names as case-insensitive substrings', () => {
    expect(countryCodesMatching('united')).toEqual(expect.arrayContaining(['AE', 'GB', 'US']));
    expect(countryCodesMatching('US')).toEqual(expect.arrayContaining(['US', 'AU', 'BY', 'CY', 'RU']));
    expect(countryCodesMatching('de')).toEqual(expect.arrayContaining(['DE', 'BD', 'CV']));
    expect(countryCodesMatching('  GERMANY ')).toEqual(['DE']);
  });

  it('ignores accents', () => {
    expect(countryCodesMatching('cote')).toEqual(['CI']);
    expect(countryCodesMatching('Côte')).toEqual(['CI']);
  });

  it('knows about 250 codes, and nothing matches what no name contains', () => {
    expect(countryCodesMatching('').length).toBeGreaterThanOrEqual(245);
    expect(countryCodesMatching('%')).toEqual([]);
    expect(countryCodesMatching('xyzzy')).toEqual([]);
  });
});
