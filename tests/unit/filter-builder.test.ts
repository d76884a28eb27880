import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chipsOf, describeTerm, FILTER_FIELDS, filterOf, operatorsOf, termFrom } from '@/lib/dashboard/filter-builder';
import { byCountryFields } from '@/lib/reports/fields';

describe('the filter builder', () => {
  it('offers every field of the by-country rows, by the API’s names', () => {
    expect(FILTER_FIELDS.map((f) => f.name).sort()).toEqual(byCountryFields.map((f) => f.name).sort());
  });

  it('reads a Filter as chips, one per AND group, and says them in words', () => {
    const read = chipsOf('cpm>2;fillRate>=0.85;country==DE,country==FR;impressions<=1000000');
    expect('groups' in read && read.groups.map((g) => g.map(describeTerm).join(' or '))).toEqual([
      'eCPM > $2',
      'Fill rate ≥ 85%',
      'Country is Germany or Country is France',
      'Impressions ≤ 1,000,000',
    ]);
    expect(chipsOf('')).toEqual({ groups: [] });
  });

  it('explains an expression it cannot read, by the API’s own message', () => {
    const read = chipsOf('nosuch>1');
    expect('error' in read && read.error).toMatch(/unknown field "nosuch"/);
  });

  it('writes chips back as the same Filter, for any chips the builder can make', () => {
    const term = fc.oneof(
      fc.record({
        field: fc.constantFrom(...FILTER_FIELDS.filter((f) => f.unit !== 'country').map((f) => f.name)),
        op: fc.constantFrom(...operatorsOf(FILTER_FIELDS[0]).map((o) => o.op)),
        typed: fc.double({ min: 0, max: 1e9, noNaN: true }).map((n) => String(n)),
      }),
      fc.record({
        field: fc.constant('country'),
        op: fc.constantFrom('==' as const, '!=' as const),
        typed: fc.constantFrom('de', 'US', 'fr'),
      }),
    );
    fc.assert(
      fc.property(fc.array(fc.array(term, { minLength: 1, maxLength: 3 }), { maxLength: 4 }), (spec) => {
        const groups = spec.map((group) =>
          group.map(({ field, op, typed }) => {
            const made = termFrom(field, op, typed);
            if ('error' in made) throw new Error(made.error);
            return made;
          }),
        );
        const written = filterOf(groups);
        expect(chipsOf(written)).toEqual({ groups });
      }),
    );
  });

  it('takes money in dollars, fill rate in percent, counts with separators, and a country by its code', () => {
    expect(termFrom('cpm', '>', '$2.50')).toMatchObject({ field: 'cpm', op: '>', value: 2.5 });
    expect(termFrom('fillRate', '>=', '85%')).toMatchObject({ value: 0.85 });
    expect(termFrom('fillRate', '>=', '33.3')).toMatchObject({ value: 0.333 });
    expect(termFrom('impressions', '<', '1,000,000')).toMatchObject({ value: 1_000_000 });
    expect(termFrom('country', '==', 'de')).toMatchObject({ field: 'country', value: 'DE' });
    expect(termFrom('cpm', '>', 'two')).toEqual({ error: 'Enter a number for eCPM' });
    expect(termFrom('cpm', '>', '')).toEqual({ error: 'Enter a number for eCPM' });
    expect(termFrom('country', '==', 'Atlantis')).toEqual({ error: 'Choose a country' });
  });
});
