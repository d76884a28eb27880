/**
 * Issue 23, point 5: GET /api/v1/payments/balance, /statements (paged with the reports' grammar, JSON or CSV)
 * and /statements/{month} (JSON, or a PDF with Accept: application/pdf), for account-level keys only. On the
 * demo publisher, whose months before this one are closed and all but the latest amount due paid (the seed).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '@/db/seed-data';
import { dollars } from '@/lib/shared/money';
import { fetchInProcess, get } from '../support/api';
import { useTestDatabase } from '../support/db';
import { demoKey } from '../support/keys';
import { expectProblem } from './api-helpers';
import { micros, q } from './reports-helpers';

const t = useTestDatabase();
let key: string;
let scopedKey: string;

interface Summary {
  month: string;
  status: string;
  openingBalance: number;
  earnings: number;
  adjustments: number;
  closingBalance: number;
  amountDue: number;
  carriedOver: number;
  expectedPaymentDate: string | null;
  paidAt: string | null;
}

beforeAll(async () => {
  key = (await demoKey()).raw;
  scopedKey = (await demoKey({ siteIds: [DEMO_IDS.sites.skyHopper] })).raw;
});

const all = async () => (await get('/api/v1/payments/statements?pageSize=100', { key })).json.data as Summary[];

describe('GET /api/v1/payments/statements', () => {
  it('lists every month from the first with revenue, newest first: this month estimated, the ones before closed', async () => {
    const statements = await all();
    const thisMonth = t.today.slice(0, 7);
    expect(statements[0]).toMatchObject({ month: thisMonth, status: 'estimated' });
    expect(statements.slice(1).every((s) => s.status === 'finalized' || s.status === 'paid')).toBe(true);
    expect(statements.filter((s) => s.status === 'paid').length).toBeGreaterThan(0);
    const months = statements.map((s) => s.month);
    expect(months).toEqual([...months].sort().reverse());
    for (const s of statements) {
      expect(micros(s.closingBalance)).toBe(micros(s.openingBalance) + micros(s.earnings) + micros(s.adjustments));
      expect(micros(s.amountDue) + micros(s.carriedOver)).toBe(micros(s.closingBalance));
    }
  });

  it('filters, sorts, searches and pages with the reports’ grammar, and answers CSV', async () => {
    const paid = await get(`/api/v1/payments/statements?${q({ Filter: 'status==paid', sortBy: 'earnings' })}`, { key });
    expect(paid.status, paid.text).toBe(200);
    const rows = paid.json.data as Summary[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((s) => s.status === 'paid')).toBe(true);
    expect(rows.map((s) => s.earnings)).toEqual([...rows.map((s) => s.earnings)].sort((a, b) => a - b));
    expect(paid.json.meta).toMatchObject({ sortBy: 'earnings', sortDirection: 'asc', totalRows: rows.length });

    const second = await get('/api/v1/payments/statements?pageSize=2&page=2', { key });
    expect(second.json.data.map((s: Summary) => s.month)).toEqual((await all()).slice(2, 4).map((s) => s.month));
    const search = await get('/api/v1/payments/statements?Search=estimated', { key });
    expect(search.json.data.map((s: Summary) => s.status)).toEqual(['estimated']);

    const csv = await get('/api/v1/payments/statements?pageSize=3', { key, headers: { Accept: 'text/csv' } });
    expect(csv.status).toBe(200);
    expect(csv.text.split('\n')[0]).toBe(
      'month,status,openingBalance,earnings,adjustments,closingBalance,amountDue,carriedOver,threshold,expectedPaymentDate,finalizedAt,paidAt,paymentReference',
    );
    expect(csv.headers.get('x-total-rows')).toBe(String((await all()).length));

    const bad = await get('/api/v1/payments/statements?Filter=nosuchfield==1', { key });
    expectProblem(bad, 400, '/api/v1/payments/statements');
    expect(bad.text).toContain('nosuchfield');
  });
});

describe('GET /api/v1/payments/statements/{month}', () => {
  it('gives a closed month’s lines by site; its earnings equal the totals report of the month', async () => {
    const closed = (await all()).find((s) => s.status !== 'estimated')!;
    const res = await get(`/api/v1/payments/statements/${closed.month}`, { key });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      month: closed.month,
      accountId: DEMO_IDS.users.demo,
      accountName: 'Demo Games Ltd',
    });
    const lines = res.json.lines as { kind: string; amount: number }[];
    const earned = lines.filter((l) => l.kind === 'earnings').reduce((sum, l) => sum + micros(l.amount), 0);
    expect(earned).toBe(micros(res.json.earnings));
    const [year, month] = closed.month.split('-').map(Number);
    const last = new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
    const totals = await get(`/api/v1/reports/totals?${q({ fromDate: `${closed.month}-01`, toDate: last })}`, { key });
    expect(micros(totals.json.totalRevenue)).toBe(micros(res.json.earnings));
  });

  it('as a PDF: the account, the period, the lines and the totals, to the cent', async () => {
    const paid = (await all()).find((s) => s.status === 'paid')!;
    const response = await fetchInProcess(
      new Request(`http://localhost/api/v1/payments/statements/${paid.month}`, {
        headers: { 'X-Api-Key': key, Accept: 'application/pdf' },
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="statement-${paid.month}.pdf"`);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'statement-')), 'statement.pdf');
    fs.writeFileSync(file, bytes);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text).toContain('Demo Games Ltd');
    expect(text).toContain('Status: Paid');
    expect(text).toMatch(
      new RegExp(`Closing balance\\s+\\$${dollars(micros(paid.closingBalance)).replace('.', '\\.')}`),
    );
    expect(text).toContain('Sky Hopper');
  });

  it('answers a precise 400, 404 and 406', async () => {
    const malformed = await get('/api/v1/payments/statements/2026-13', { key });
    expectProblem(malformed, 400, '/api/v1/payments/statements/2026-13');
    expect(malformed.json.errors[0]).toMatchObject({ parameter: 'month' });
    const none = await get('/api/v1/payments/statements/1999-01', { key });
    expectProblem(none, 404, '/api/v1/payments/statements/1999-01');
    expect(none.json.detail).toMatch(/^No statement for 1999-01: this account's statements run from \d{4}-\d\d to /);
    const png = await get('/api/v1/payments/statements/1999-01', { key, headers: { Accept: 'image/png' } });
    expect(png.status).toBe(406);
  });
});

describe('GET /api/v1/payments/balance', () => {
  it('is everything earned minus everything paid, with the next payment and the threshold', async () => {
    const res = await get('/api/v1/payments/balance', { key });
    expect(res.status, res.text).toBe(200);
    const statements = await all();
    const earned = statements.reduce((sum, s) => sum + micros(s.earnings) + micros(s.adjustments), 0);
    const paid = statements.filter((s) => s.status === 'paid').reduce((sum, s) => sum + micros(s.amountDue), 0);
    expect(micros(res.json.balance)).toBe(earned - paid);
    expect(micros(res.json.paidToDate)).toBe(paid);
    expect(res.json.threshold).toBe(100);
    const unpaid = statements.filter((s) => s.status === 'finalized' && s.amountDue > 0).at(-1);
    if (unpaid) expect(res.json.nextPayment).toMatchObject({ month: unpaid.month, estimated: false });
  });
});

describe('a site-scoped key', () => {
  it.each(['/api/v1/payments/balance', '/api/v1/payments/statements', `/api/v1/payments/statements/2024-01`])(
    'gets 403 from %s: statements are the whole account’s',
    async (url) => {
      const res = await get(url, { key: scopedKey });
      expectProblem(res, 403, url);
      expect(res.json.detail).toContain('account-level API key');
    },
  );
});
