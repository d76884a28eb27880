import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import prettier from 'prettier';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProblemError } from '@/lib/http/problem';
import { claimReportSlot } from '@/lib/http/report-slots';
import { benchCases } from '@/scripts/bench/cases';
import { load, type Stats, summarize } from '@/scripts/bench/measure';
import { readmeTable } from '@/scripts/bench/readme-table';
import { describeErrors, type PhaseResult, withRatios } from '@/scripts/bench/report';

/**
 * `npm run bench` against the real report slots (lib/http/report-slots.ts): a server that holds each request
 * for a while under the slot of its X-Api-Key, as the API's report routes do, answering 429 when the key has
 * none left.
 */
describe('npm run bench: one API key per connection', () => {
  let server: http.Server;
  let url: string;

  beforeAll(async () => {
    server = http.createServer(async (request, response) => {
      let release: () => void;
      try {
        release = await claimReportSlot(String(request.headers['x-api-key']));
      } catch (err) {
        response.writeHead(err instanceof ProblemError ? err.status : 500).end();
        return;
      }
      setTimeout(() => {
        release();
        response.writeHead(200).end('{}');
      }, 20);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/report`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('10 connections with 10 keys: every answer 200, no error to report', async () => {
    const keys = Array.from({ length: 10 }, (_, i) => ({ 'x-api-key': `bench-key-${i}` }));
    const stats = summarize(await load({ url, headersByConnection: keys, connections: 10, seconds: 1 }));
    expect(stats.requests).toBeGreaterThan(100);
    expect(stats.statusCodes).toEqual({ 200: stats.requests });
    expect(describeErrors(stats)).toBeNull();
  });

  it('10 connections sharing one key (the bench before): 429s, named by describeErrors', async () => {
    const stats = summarize(
      await load({ url, headersByConnection: [{ 'x-api-key': 'shared' }], connections: 10, seconds: 1 }),
    );
    expect(stats.statusCodes['429']).toBeGreaterThan(0);
    expect(describeErrors(stats)).toMatch(/^\d+ × 429 \(429: a rate limit or report slot reached; .*own API key\)$/);
  });
});

describe("the README's Performance table", () => {
  const cases = benchCases({ today: '2026-03-31', siteIds: Array.from({ length: 90 }, (_, i) => `site-${i}`) });
  const figures = (i: number): Stats => ({
    ...{
      requests: 100,
      p99Ms: 0,
      meanMs: 0,
      minMs: 0,
      maxMs: 0,
      statusCodes: { 200: 100 },
      failures: 0,
      unexpected: 0,
    },
    ...{ p50Ms: 1.25 + i, p95Ms: 2.5 + i * 100, reqPerSec: 1702.4 - i },
  });
  const phase = (name: PhaseResult['name']): PhaseResult => ({
    name,
    connections: name === 'sequential' ? 1 : 10,
    seconds: 10,
    // The last case was not measured (a failed warm-up, or --only).
    cases: cases.slice(0, -1).map((c, i) => withRatios(c, figures(i), figures(0))),
  });
  // The cases the report cache answers, measured again without it (the same figures here).
  const uncached: PhaseResult = {
    ...phase('uncached'),
    cases: cases
      .slice(0, -1)
      .filter((c) => c.floor || c.cached)
      .map((c) => withRatios(c, figures(cases.indexOf(c)), figures(0))),
  };
  const table = readmeTable(cases, [phase('sequential'), phase('concurrent'), uncached], 10);
  const lines = table.split('\n');

  it('has the README columns, and Prettier leaves it as it is (pasting it is mechanical)', async () => {
    expect(lines[0]).toMatch(
      /^\| request +\| +p50 \| +p95 \| p95 at concurrency 10 \| req\/s at concurrency 10 \| p95 without the report cache \|$/,
    );
    expect(await prettier.format(table, { parser: 'markdown' })).toBe(`${table}\n`);
  });

  it('one row per README row, its cases side by side in the README number style', () => {
    expect(lines).toHaveLength(2 + new Set(cases.map((c) => c.row)).size);
    // The last column only for the rows the report cache answers.
    expect(lines[2]).toMatch(/^\| health \(framework floor\) +\| +1\.3 \| +2\.5 \| +2\.5 \| +1,702 \| +\|$/);
    // Cases 2, 3 and 4.
    expect(lines[4]).toMatch(
      /^\| totals, 30 \/ 365 \/ 731 days +\| +3\.3 \/ 4\.3 \/ 5\.3 \| 202\.5 \/ 302\.5 \/ 402\.5 \|/,
    );
    const row = (label: string) => lines.find((l) => l.startsWith(`| ${label} `));
    // Case 13: ms from 1,000 up are whole, with a thousands separator.
    expect(row('by-country, 731 days, 50 sites')).toMatch(/\| +14\.3 \| +1,303 \| +1,303 \| +1,689 \| +1,303 \|$/);
    // The dashboard's three documents, for the default range and a year; the unmeasured last one shows as –.
    expect(row('dashboard, default range: overview / countries / sites (document)')).toMatch(
      /\| \d+\.\d \/ \d+\.\d \/ \d+\.\d \|/,
    );
    expect(row('dashboard, 365 days: overview / countries / sites (document)')).toMatch(
      / \/ – \| +[\d,]+ \/ [\d,]+ \/ – \| +[\d,.]+ \/ [\d,.]+ \/ – \|$/,
    );
  });

  it('leaves out the rows of which no case was measured (--only)', () => {
    const floorsOnly = [phase('sequential'), phase('concurrent')].map((p) => ({ ...p, cases: p.cases.slice(0, 2) }));
    expect(
      readmeTable(cases, floorsOnly, 10)
        .split('\n')
        .map((l) => l.split(' |')[0]),
    ).toEqual([
      '| request                 ',
      '| ------------------------',
      '| health (framework floor)',
      '| sites (auth floor)      ',
    ]);
  });

  it('marks a figure that includes answers other than 2xx, and says which below the table', async () => {
    const [sequential, concurrent] = [phase('sequential'), phase('concurrent')];
    const failed = { ...concurrent.cases[13], statusCodes: { 200: 69, 503: 31 }, unexpected: 31 };
    concurrent.cases[13] = failed;
    const marked = readmeTable(cases, [sequential, concurrent], 10);
    const row = marked.split('\n').find((l) => l.startsWith('| by-country, 731 days, 50 sites '));
    // Not measured without the report cache in this run: –.
    expect(row).toMatch(/\| +14\.3 \| +1,303 \| +1,303† \| +1,689† \| +– \|$/);
    expect(marked.split('\n').at(-1)).toBe(`† ${failed.name}, concurrent: 31 × 503.`);
    expect(await prettier.format(marked, { parser: 'markdown' })).toBe(`${marked}\n`);
  });

  it('the dashboard cases ask for /payments, then /, /countries and /sites, by default and for 365 days', () => {
    const dashboard = cases.filter((c) => c.auth === 'session').map((c) => c.path);
    expect(dashboard).toEqual([
      '/payments',
      '/',
      '/countries',
      '/sites',
      '/?from=2025-04-01&to=2026-03-31',
      '/countries?from=2025-04-01&to=2026-03-31',
      '/sites?from=2025-04-01&to=2026-03-31',
    ]);
  });
});
