import { describe, expect, it } from 'vitest';
import { negotiateMediaType, negotiateResponseType } from '@/lib/http/negotiate';
import { ProblemError } from '@/lib/http/problem';

const json = (accept: string | null) => negotiateResponseType(accept, false);
const paged = (accept: string | null) => negotiateResponseType(accept, true);

function refusal(accept: string, csv = false): ProblemError {
  try {
    negotiateResponseType(accept, csv);
  } catch (err) {
    return err as ProblemError;
  }
  throw new Error(`Accept: ${accept} was not refused`);
}

describe('content negotiation', () => {
  it('defaults to application/json without Accept', () => {
    expect(json(null)).toBe('application/json');
    expect(json('')).toBe('application/json');
    expect(json('   ')).toBe('application/json');
  });

  it('offers the three JSON media types', () => {
    expect(json('application/json')).toBe('application/json');
    expect(json('text/json')).toBe('text/json');
    expect(json('text/plain')).toBe('text/plain');
  });

  it('ignores letter case and parameters of the media type', () => {
    expect(json('Text/Plain')).toBe('text/plain');
    expect(json('APPLICATION/JSON; charset=utf-8')).toBe('application/json');
    expect(json('text/plain; charset=UTF-8')).toBe('text/plain');
    expect(paged('text/csv; charset=utf-8')).toBe('text/csv');
  });

  it('answers wildcards with JSON', () => {
    expect(json('*/*')).toBe('application/json');
    expect(json('application/*')).toBe('application/json');
    expect(paged('*/*')).toBe('application/json');
  });

  it('honours q-values', () => {
    expect(json('application/json;q=0.4, text/plain;q=0.9')).toBe('text/plain');
    expect(json('text/plain;q=0.2, text/json;q=0.3, application/json;q=0.1')).toBe('text/json');
    expect(json('text/html, application/xml;q=0.9, text/plain;q=0.5, */*;q=0.1')).toBe('text/plain');
    expect(json('*/*;q=0.1, text/json')).toBe('text/json');
    // q=0 means "not acceptable": what remains of the wildcard is chosen.
    expect(json('application/json;q=0, */*')).not.toBe('application/json');
  });

  it('picks the first acceptable type of a browser-like header', () => {
    expect(json('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).toBe('application/json');
  });

  it('offers CSV only where rows can be rendered as CSV', () => {
    expect(paged('text/csv')).toBe('text/csv');
    expect(paged('text/csv;q=0.5, application/json')).toBe('application/json');
    const err = refusal('text/csv');
    expect(err.status).toBe(406);
  });

  it("serves an endpoint's own offer (the export), its first type when Accept allows any", () => {
    const offer = ['text/csv', 'application/x-ndjson'];
    for (const accept of [null, '', '*/*', 'text/*', 'text/csv;q=0.9, application/x-ndjson;q=0.9']) {
      expect(negotiateMediaType(accept, offer)).toBe('text/csv');
    }
    expect(negotiateMediaType('application/*', offer)).toBe('application/x-ndjson');
    expect(negotiateMediaType('text/csv;q=0.5, application/x-ndjson', offer)).toBe('application/x-ndjson');
    expect(() => negotiateMediaType('application/json', offer)).toThrow(/offers text\/csv, application\/x-ndjson/);
  });

  it('refuses with 406 when nothing offered is acceptable', () => {
    for (const accept of [
      'application/xml',
      'text/html',
      'image/png',
      'application/json;q=0',
      'text/*;q=0, application/*;q=0',
      'application/json; charset=iso-8859-1',
    ]) {
      const err = refusal(accept);
      expect(err).toBeInstanceOf(ProblemError);
      expect(err.status).toBe(406);
      expect(err.title).toBe('Not Acceptable');
      expect(err.detail).toContain('application/json');
    }
  });
});
