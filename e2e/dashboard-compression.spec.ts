import http from 'node:http';
import zlib from 'node:zlib';
import { BASE_URL, createKeyAs, expect, test } from './support/dashboard';

/**
 * Issue 24, point 3, through the production server (`npm start`): answers over 1 KiB are compressed as
 * Accept-Encoding asks, br or gzip, the streamed export included, and decompress to exactly the bytes sent
 * without compression; validators survive compression, and the dashboard's downloads are revalidated too.
 */

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body as it came over the wire, still compressed. */
  wire: Buffer;
}

/** A GET that shows the body as sent: Playwright's and fetch's clients decompress on their own. */
function rawGet(path: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .get(new URL(path, BASE_URL), { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, wire: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const DECODE: Record<string, (b: Buffer) => Buffer> = {
  br: zlib.brotliDecompressSync,
  gzip: zlib.gunzipSync,
};

let key: string;
test.beforeAll(async ({ browser }) => {
  key = (await createKeyAs(browser, 'demo')).key;
});

const CASES = [
  { what: 'a JSON page', path: '/api/v1/reports/countries?pageSize=200', accept: 'application/json' },
  { what: 'a CSV page', path: '/api/v1/reports/countries?pageSize=200', accept: 'text/csv' },
  { what: 'the streamed NDJSON export', path: '/api/v1/reports/countries/export', accept: 'application/x-ndjson' },
  { what: 'the streamed CSV export', path: '/api/v1/reports/countries/export', accept: 'text/csv' },
];

for (const { what, path, accept } of CASES) {
  test(`${what} comes as br or gzip, as asked, and decompresses to the uncompressed answer`, async () => {
    const headers = { 'X-Api-Key': key, Accept: accept };
    const plain = await rawGet(path, { ...headers, 'Accept-Encoding': 'identity' });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.wire.length).toBeGreaterThan(4096);
    for (const encoding of ['br', 'gzip']) {
      const packed = await rawGet(path, { ...headers, 'Accept-Encoding': `${encoding}, identity;q=0.5` });
      expect(packed.status).toBe(200);
      expect(packed.headers['content-encoding']).toBe(encoding);
      expect(packed.headers.vary).toMatch(/accept-encoding/i);
      expect(packed.wire.length).toBeLessThan(plain.wire.length / 3);
      expect(DECODE[encoding](packed.wire).equals(plain.wire), `${encoding} decodes to the same bytes`).toBe(true);
      // The same data, the same (weak) validator, compressed or not.
      expect(packed.headers.etag).toBe(plain.headers.etag);
    }
    // br first when the client likes both equally.
    expect(
      (await rawGet(path, { ...headers, 'Accept-Encoding': 'gzip, deflate, br' })).headers['content-encoding'],
    ).toBe('br');
  });
}

test('a small answer is sent as is, and a revalidation through the server is a 304 without a body', async () => {
  const headers = { 'X-Api-Key': key, 'Accept-Encoding': 'br, gzip' };
  const totals = await rawGet('/api/v1/reports/totals', headers);
  expect(totals.status).toBe(200);
  expect(totals.wire.length).toBeLessThan(1024);
  expect(totals.headers['content-encoding']).toBeUndefined();
  const again = await rawGet('/api/v1/reports/totals', { ...headers, 'If-None-Match': totals.headers.etag! });
  expect(again.status).toBe(304);
  expect(again.wire.length).toBe(0);
});

test("the dashboard's downloads are revalidated: a 304 for the copy the browser has", async ({ openAs }) => {
  const page = await openAs('demo');
  const path = '/export/countries?from=2025-01-01&to=2025-12-31';
  const first = await page.request.get(path);
  expect(first.status()).toBe(200);
  const etag = first.headers().etag;
  expect(etag).toMatch(/^W\/"/);
  expect(first.headers()['cache-control']).toBe('private, no-cache');
  const again = await page.request.get(path, { headers: { 'If-None-Match': etag } });
  expect(again.status()).toBe(304);
  expect(await again.body()).toHaveLength(0);
  // Another range is another answer.
  const other = await page.request.get('/export/countries?from=2025-02-01&to=2025-12-31', {
    headers: { 'If-None-Match': etag },
  });
  expect(other.status()).toBe(200);
});
