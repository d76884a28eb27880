import { describe, expect, it } from 'vitest';
import { pagingLinks } from '@/lib/http/paging-links';

const at = (pathAndQuery: string) => new URL(pathAndQuery, 'http://localhost');

describe('pagingLinks', () => {
  it('repeats the other parameters byte for byte, in their order, and sets page last', () => {
    const url = at('/r?Search=a+b&Filter=x%3E%3D1%3By%3D%40z&FilterList%5Bcountry%5D=US,CA&page=2&pageSize=5');
    expect(pagingLinks(url, { page: 2, totalPages: 3 })).toBe(
      [
        '</r?Search=a+b&Filter=x%3E%3D1%3By%3D%40z&FilterList%5Bcountry%5D=US,CA&pageSize=5&page=1>; rel="first"',
        '</r?Search=a+b&Filter=x%3E%3D1%3By%3D%40z&FilterList%5Bcountry%5D=US,CA&pageSize=5&page=1>; rel="prev"',
        '</r?Search=a+b&Filter=x%3E%3D1%3By%3D%40z&FilterList%5Bcountry%5D=US,CA&pageSize=5&page=3>; rel="next"',
        '</r?Search=a+b&Filter=x%3E%3D1%3By%3D%40z&FilterList%5Bcountry%5D=US,CA&pageSize=5&page=3>; rel="last"',
      ].join(', '),
    );
  });

  it('drops page and apiKey in any letter case or percent-encoding, and empty parts', () => {
    const url = at('/r?apiKey=rpk_secret&&PAGE=1&api%4Bey=rpk_other&APIKEY=x&pageSize=2');
    const links = pagingLinks(url, { page: 1, totalPages: 1 });
    expect(links).toBe('</r?pageSize=2&page=1>; rel="first", </r?pageSize=2&page=1>; rel="last"');
  });

  it('without a query string, links carry only the page', () => {
    expect(pagingLinks(at('/r'), { page: 1, totalPages: 2 })).toBe(
      '</r?page=1>; rel="first", </r?page=2>; rel="next", </r?page=2>; rel="last"',
    );
  });
});
