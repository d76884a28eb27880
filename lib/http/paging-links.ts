/**
 * RFC 8288 links between the pages of a paged answer: first, prev, next and last, as root-relative URLs
 * that repeat the request's query string as sent, with only `page` changed (and any `apiKey` left out: a
 * link is a URL that gets logged, bookmarked and shared; the key belongs in a header).
 */

export interface PageMeta {
  page: number;
  totalPages: number;
}

/** Query parameters never repeated in a link: the page (set per link) and a key sent in the query. */
const DROPPED = new Set(['page', 'apikey']);

/** The query's raw `name=value` parts, in the order and spelling sent, without the dropped ones. */
function keptParts(search: string): string[] {
  return search
    .replace(/^\?/, '')
    .split('&')
    .filter((part) => {
      if (!part) return false;
      const rawName = part.split('=', 1)[0];
      let name: string;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        name = rawName;
      }
      // Parameter names are read in any letter case (lib/query), so `Page` and `APIKEY` are dropped too.
      return !DROPPED.has(name.toLowerCase());
    });
}

/**
 * The Link header value for `meta`'s page of the answer at `url`. No prev on page 1, no next on the last
 * page; an empty answer has one page (first and last are page 1). A page past the end links back to the last.
 */
export function pagingLinks(url: URL, meta: PageMeta): string {
  const kept = keptParts(url.search);
  const last = Math.max(1, meta.totalPages);
  const link = (page: number, rel: string) => `<${url.pathname}?${[...kept, `page=${page}`].join('&')}>; rel="${rel}"`;
  const links = [link(1, 'first')];
  if (meta.page > 1) links.push(link(Math.min(meta.page - 1, last), 'prev'));
  if (meta.page < last) links.push(link(meta.page + 1, 'next'));
  links.push(link(last, 'last'));
  return links.join(', ');
}
