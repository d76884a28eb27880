import { describe, expect, it } from 'vitest';
import { safeNextPath } from '@/lib/dashboard/session';

/** Where a browser would go when redirected to `location` from a page of the portal. */
const resolvedByBrowser = (location: string) => new URL(location, 'https://portal.example/login?next=x');

describe('safeNextPath', () => {
  it.each([
    '/',
    '/countries',
    '/countries?from=2026-02-01&to=2026-02-28&sites=3f2504e0-4f89-41d3-9a0c-0305e82c3301',
    '/countries?Search=united%20states&FilterList%5Bcountry%5D=US,DE&page=2#table',
    '/keys',
    '/sites?x=//evil.example',
  ])('keeps the path inside this site: %s', (path) => {
    expect(safeNextPath(path)).toBe(path);
    expect(resolvedByBrowser(safeNextPath(path)).origin).toBe('https://portal.example');
  });

  it('returns the path as the URL parser writes it: dot segments resolved, non-ASCII percent-encoded', () => {
    expect(safeNextPath('/a/b/../c')).toBe('/a/c');
    expect(safeNextPath('/countries?Search=Côte d’Ivoire')).toBe('/countries?Search=C%C3%B4te%20d%E2%80%99Ivoire');
    expect(() => new Headers({ location: safeNextPath('/países') })).not.toThrow();
  });

  it.each([
    ['a protocol-relative URL', '//evil.example'],
    ['a protocol-relative URL with a path', '//evil.example/countries'],
    ['a backslash that browsers read as a slash', '/\\evil.example'],
    ['backslashes only', '\\\\evil.example'],
    ['an absolute URL', 'https://evil.example'],
    ['an absolute URL with a path', 'https://evil.example/'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a data: URL', 'data:text/html,<script>alert(1)</script>'],
    ['a relative path', 'countries'],
    ['a tab that browsers strip, leaving //', '/\t/evil.example'],
    ['a newline that browsers strip, leaving //', '/\n/evil.example'],
    ['a carriage return that browsers strip, leaving //', '/\r\n/evil.example'],
    ['a tab before a backslash', '/\t\\evil.example'],
    ['a backslash after a slash, later on', '/\\/evil.example'],
    ['a dot segment that resolves to //', '/.//evil.example'],
    ['an encoded dot segment that resolves to //', '/%2e//evil.example'],
    ['a parent segment that resolves to //', '/a/..//evil.example'],
    ['the empty string', ''],
  ])('turns %s into "/"', (_, next) => {
    expect(safeNextPath(next)).toBe('/');
  });

  it('never returns anything that a browser would resolve to another origin', () => {
    const tricky = [
      '/',
      '\\',
      '\t',
      '\n',
      '\r',
      ' ',
      '@',
      ':',
      '.',
      '%2F',
      '%5C',
      'evil.example',
      '\u0000',
      '\u3000',
      '\u2028',
    ];
    // Every string of up to three pieces after a leading slash.
    const suffixes = [''];
    for (let len = 0; len < 3; len++) {
      for (const s of [...suffixes]) for (const t of tricky) suffixes.push(s + t);
    }
    for (const suffix of suffixes) {
      const next = `/${suffix}evil.example`;
      const safe = safeNextPath(next);
      expect(resolvedByBrowser(safe).origin, JSON.stringify(next)).toBe('https://portal.example');
      // Headers (Location) must be able to carry it.
      expect(() => new Headers({ location: safe }), JSON.stringify(next)).not.toThrow();
    }
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a number', 42],
    ['an array', ['/countries']],
    ['an object', { toString: () => '/countries' }],
    ['a File-like form value', new Blob(['/countries'])],
  ])('turns a non-string (%s) into "/"', (_, next) => {
    expect(safeNextPath(next)).toBe('/');
  });
});
