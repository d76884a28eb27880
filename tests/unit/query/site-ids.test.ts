import { describe, it, expect } from 'vitest';
import { isUuid } from '@/lib/query';
import { errorsOf, readSiteDay } from './helpers';

const A = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const B = '00000000-0000-0000-0000-000000000000';

describe('isUuid', () => {
  it('accepts any version in either case', () => {
    expect(isUuid(A)).toBe(true);
    expect(isUuid(A.toUpperCase())).toBe(true);
    expect(isUuid(B)).toBe(true);
    expect(isUuid('01890a5d-ac96-774b-bcce-b302099a8057')).toBe(true);
  });

  it('rejects anything but 8-4-4-4-12 hex', () => {
    for (const bad of ['', 'abc', A.replace(/-/g, ''), `{${A}}`, `${A}0`, A.replace('f', 'g'), ` ${A}`]) {
      expect(isUuid(bad), bad).toBe(false);
    }
  });
});

const parseSiteIds = (query: string) => readSiteDay(query).siteIds;

describe('siteIds', () => {
  it('is null when absent or empty', () => {
    expect(parseSiteIds('')).toBeNull();
    expect(parseSiteIds('siteIds=')).toBeNull();
    expect(parseSiteIds('siteIds=%20,%20,')).toBeNull();
  });

  it('trims, drops empty items, lower-cases and de-duplicates in order', () => {
    const raw = `${A.toUpperCase()}, ,${B},${A}, `;
    expect(parseSiteIds(`SITEIDS=${encodeURIComponent(raw)}`)).toEqual([A, B]);
  });

  it('reports every malformed id, quoting it', () => {
    const errors = errorsOf(() => parseSiteIds(`siteIds=${A},nope,123`));
    expect(errors).toHaveLength(2);
    expect(errors.every((e) => e.parameter === 'siteIds')).toBe(true);
    expect(errors[0].detail).toContain('"nope" is not a valid site id');
    expect(errors[1].detail).toContain('"123"');
  });
});
