import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '@/db/seed-data';
import { get } from '../support/api';
import { useTestDatabase } from '../support/db';
import { demoKey } from '../support/keys';
import { BY_COUNTRY_SHAPE, ROW_SHAPE, expectPaged, expectProblem, q, shiftDay } from './reports-helpers';

const t = useTestDatabase();
const LEGACY = '/api/v1/revenues/countries';
const ROWS_PATH = '/api/v1/reports/countries';
let key: string;

beforeAll(async () => {
  key = (await demoKey()).raw;
});

/** RFC 9110 IMF-fixdate, e.g. "Wed, 30 Jun 2027 23:59:59 GMT". */
const IMF_FIXDATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

describe('GET /api/v1/revenues/countries (deprecated legacy feed)', () => {
  it('returns the same body as /reports/countries for the same parameters', async () => {
    const cases = [
      '',
      'page=3&pageSize=7&sortBy=revenueAmount&sortDirection=desc',
      q({ Filter: `createdAt>=${shiftDay(t.today, -3)};gameName=@o`, Search: 'an', sortBy: 'GAMENAME', PageSize: 50 }),
      q({ 'FilterList[gameId]': DEMO_IDS.sites.wordGarden, 'FilterList.country': 'US,CA', page: 2, pageSize: 100 }),
      'page=999999&pageSize=1000',
    ];
    for (const params of cases) {
      const legacy = await get(`${LEGACY}?${params}${params ? '&' : ''}apiKey=${key}`);
      const successor = await get(`${ROWS_PATH}?${params}`, { key });
      expectPaged(legacy, ROW_SHAPE);
      expect(legacy.json, params).toEqual(successor.json);
      expect(legacy.json.meta.totalRows, params).toBeGreaterThan(0);
    }
  });

  it('carries Deprecation, a successor Link and a Sunset HTTP-date; the successor does not', async () => {
    const res = await get(`${LEGACY}?pageSize=1&apiKey=${key}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('deprecation')).toBe('true');
    // The successor first, then the links between pages (tests/integration/api-paging-links.test.ts).
    expect(res.headers.get('link')).toMatch(
      /^<\/api\/v1\/reports\/countries>; rel="successor-version", <[^>]+>; rel="first"/,
    );
    const sunset = res.headers.get('sunset')!;
    expect(sunset).toMatch(IMF_FIXDATE);
    const when = new Date(Date.parse(sunset));
    // A well-formed date whose weekday is right, and not already past.
    expect(when.toUTCString()).toBe(sunset);
    expect(when.getTime()).toBeGreaterThan(Date.now());

    const successor = await get(`${ROWS_PATH}?pageSize=1`, { key });
    expect(successor.headers.get('deprecation')).toBeNull();
    expect(successor.headers.get('sunset')).toBeNull();
  });

  it('carries the deprecation notice on its error answers too (401, 400, 429 alike)', async () => {
    const answers = [
      await get(LEGACY), // no key
      await get(`${LEGACY}?apiKey=${key}&pageSize=0`), // bad parameter
      await get(`${LEGACY}?apiKey=${key}&siteIds=${DEMO_IDS.sites.wordGarden}`), // not a parameter of this endpoint
    ];
    expect(answers.map((a) => a.status)).toEqual([401, 400, 400]);
    for (const answer of answers) {
      expect(answer.headers.get('deprecation')).toBe('true');
      expect(answer.headers.get('link')).toContain('rel="successor-version"');
      expect(answer.headers.get('sunset')).toMatch(IMF_FIXDATE);
    }
  });

  it('also takes the key in a header, and the same key twice, but not two different keys', async () => {
    expect((await get(`${LEGACY}?pageSize=1`, { key })).status).toBe(200);
    expect((await get(`${LEGACY}?pageSize=1&apiKey=${key}`, { key })).status).toBe(200);
    expect((await get(`${LEGACY}?pageSize=1&APIKEY=${key}`)).status).toBe(200);
    const other = (await demoKey()).raw;
    expectProblem(await get(`${LEGACY}?pageSize=1&apiKey=${other}`, { key }), 400);
    expectProblem(await get(`${LEGACY}?pageSize=1&apiKey=rpk_not-a-real-key`), 401);
    expectProblem(await get(`${LEGACY}?pageSize=1`), 401);
  });

  it('validates its parameters like the successor', async () => {
    expectProblem(await get(`${LEGACY}?apiKey=${key}&pageSize=1001`), 400, 'pageSize');
    expectProblem(await get(`${LEGACY}?apiKey=${key}&Filter=nope==1`), 400, 'Filter');
    expectProblem(await get(`${LEGACY}?apiKey=${key}&siteIds=${DEMO_IDS.sites.skyHopper}`), 400, 'siteIds');
    expectProblem(await get(`${LEGACY}?apiKey=${key}&bogus=1`), 400, 'bogus');
  });

  it('shares the rate-limit bucket of the key with the successor', async () => {
    const fresh = (await demoKey()).raw;
    const a = await get(`${ROWS_PATH}?pageSize=1`, { key: fresh });
    const b = await get(`${LEGACY}?pageSize=1&apiKey=${fresh}`);
    const c = await get(`${ROWS_PATH}?pageSize=1`, { key: fresh });
    const remaining = [a, b, c].map((r) => Number(r.headers.get('x-ratelimit-remaining')));
    expect(remaining).toEqual([remaining[0], remaining[0] - 1, remaining[0] - 2]);
    expect(a.headers.get('x-ratelimit-limit')).toBe('120');
  });
});

describe('the key in the query string does not work on /reports/countries', () => {
  it('is a 401 without a header key', async () => {
    const res = await get(`${ROWS_PATH}?apiKey=${key}`);
    expectProblem(res, 401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('is an unknown parameter (400) next to a header key', async () => {
    expectProblem(await get(`${ROWS_PATH}?apiKey=${key}`, { key }), 400, 'apiKey');
    expectProblem(await get(`/api/v1/reports/by-country?apiKey=${key}`, { key }), 400, 'apiKey');
    expectProblem(await get(`/api/v1/reports/totals?ApiKey=${key}`, { key }), 400, 'apiKey');
  });
});

describe('content negotiation on the reports', () => {
  const PAGED = [
    ['/api/v1/reports/by-country?pageSize=5', BY_COUNTRY_SHAPE],
    ['/api/v1/reports/countries?pageSize=5&sortBy=gameName', ROW_SHAPE],
  ] as const;

  it('serves the same JSON as application/json, text/json and text/plain', async () => {
    for (const [path] of PAGED) {
      const base = await get(path, { key });
      const cases: [string, RegExp][] = [
        ['application/json', /^application\/json/],
        ['text/json', /^text\/json/],
        ['text/plain', /^text\/plain/],
        ['*/*', /^application\/json/],
        ['text/*', /^text\/(json|plain)/],
        ['application/xml;q=0.5, text/json', /^text\/json/],
        ['text/csv;q=0.1, application/json', /^application\/json/],
      ];
      for (const [type, expected] of cases) {
        const res = await get(path, { key, headers: { accept: type } });
        expect(res.status, `${path} ${type}`).toBe(200);
        expect(res.headers.get('content-type'), type).toMatch(expected);
        expect(JSON.parse(res.text)).toEqual(base.json);
      }
    }
  });

  it('serves CSV with a header row of the row fields on paged endpoints', async () => {
    for (const [path, shape] of [...PAGED, [`${LEGACY}?pageSize=5&apiKey=KEY`, ROW_SHAPE] as const]) {
      const url = path.replace('KEY', key);
      const json = await get(url, { key });
      const res = await get(url, { key, headers: { accept: 'text/csv' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
      const lines = res.text.trim().split(/\r?\n/);
      expect(lines[0].split(',').sort()).toEqual(Object.keys(shape).sort());
      expect(lines).toHaveLength(1 + json.json.data.length);
      const header = lines[0].split(',');
      const first = Object.fromEntries(lines[1].split(',').map((v, i) => [header[i], v]));
      for (const [field, value] of Object.entries(json.json.data[0]))
        expect(first[field], field).toBe(value === null ? '' : String(value));
    }
    const empty = await get('/api/v1/reports/by-country?Filter=country==ZZ', { key, headers: { accept: 'text/csv' } });
    expect(empty.status).toBe(200);
    expect(empty.text.trim().split(/\r?\n/)).toEqual([Object.keys(BY_COUNTRY_SHAPE).join(',')]);
  });

  it('answers an unsupported Accept with a 406 problem', async () => {
    for (const path of [
      '/api/v1/reports/by-country',
      '/api/v1/reports/countries',
      '/api/v1/reports/totals',
      `${LEGACY}?apiKey=${key}`,
    ]) {
      for (const type of ['application/xml', 'image/png', 'text/html', 'application/json;q=0']) {
        expectProblem(await get(path, { key, headers: { accept: type } }), 406);
      }
    }
  });
});
