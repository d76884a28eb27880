import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import type { Download, Page } from '@playwright/test';
import { apiGet, authFile, createKeyAs, expect, test, USERS, waitForHydration } from './support/dashboard';

/**
 * Issue 23 in the browser: the Owner's Payments page (balance, next payment, progress to the threshold, the
 * statements), a statement's detail, its PDF and CSV, whose totals are checked against the API (the PDF read with
 * pdftotext); Finance sees it too, a Viewer does not; the operator's Payouts page closes a month (again: nothing
 * changes), refuses a payments file line by line, and records a payment that the publisher then sees.
 */

interface Statement {
  month: string;
  status: string;
  earnings: number;
  adjustments: number;
  closingBalance: number;
  amountDue: number;
}

/** Dollars and cents as the files write them, from the API's exact dollars. */
const cents = (usd: number) => (Math.round(usd * 100) / 100).toFixed(2);
const money = (usd: number) => `$${Number(cents(usd)).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;

async function saved(download: Download) {
  const file = await download.path();
  expect(file, 'the download finished').toBeTruthy();
  return file!;
}

async function download(page: Page, name: RegExp | string) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name }).first().click()]);
  return file;
}

test.describe('the publisher', () => {
  test.use({ storageState: authFile('demo') });

  test('Payments: the balance, the statements, a statement’s detail and its PDF and CSV match the API', async ({
    page,
    browser,
    request,
  }) => {
    test.setTimeout(90_000);
    const { key } = await createKeyAs(browser, 'demo');
    const balance = (
      await apiGet<{ balance: number; nextPayment: { amount: number } | null }>(
        request,
        key,
        '/api/v1/payments/balance',
      )
    ).body;
    const statements = (await apiGet<{ data: Statement[] }>(request, key, '/api/v1/payments/statements?pageSize=100'))
      .body.data;

    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Payments' }).click();
    await expect(page.getByRole('heading', { name: 'Payments', level: 1 })).toBeVisible();
    await expect(page.getByTestId('unpaid-balance')).toContainText(money(balance.balance));
    if (balance.nextPayment)
      await expect(page.getByTestId('next-payment')).toContainText(money(balance.nextPayment.amount));
    await expect(page.getByRole('progressbar')).toBeVisible();
    await expect(page.getByTestId('statement-row')).toHaveCount(statements.length);
    await expect(page.getByTestId('statement-row').first()).toContainText('Estimated');

    const paid = statements.find((s) => s.status === 'paid')!;
    const label = new Date(`${paid.month}-01T00:00:00Z`).toLocaleDateString('en-US', {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    await page.getByRole('link', { name: label, exact: true }).click();
    await expect(page.getByRole('heading', { name: `Statement · ${label}`, level: 1 })).toBeVisible();
    await expect(page.getByText(/^Paid on /)).toBeVisible();
    await expect(page.getByTestId('figure-Earnings')).toHaveText(money(paid.earnings));
    await expect(page.getByTestId('figure-Closing balance')).toHaveText(money(paid.closingBalance));
    await waitForHydration(page);

    const pdf = await download(page, 'Download PDF');
    expect(pdf.suggestedFilename()).toBe(`statement-${paid.month}.pdf`);
    const text = execFileSync('pdftotext', ['-layout', await saved(pdf), '-'], { encoding: 'utf8' });
    expect(text).toContain(USERS.demo.name);
    expect(text).toContain(`Earnings statement · ${label}`);
    expect(text).toMatch(new RegExp(`Earnings\\s+\\$${cents(paid.earnings).replace('.', '\\.')}\\n`));
    expect(text).toMatch(new RegExp(`Closing balance\\s+\\$${cents(paid.closingBalance).replace('.', '\\.')}`));

    const csv = fs.readFileSync(await saved(await download(page, 'Download CSV')), 'utf8');
    const rows = csv.trim().split('\n');
    expect(rows[0]).toBe('Kind,Month,Site,Site ID,Amount (USD)');
    const amountOf = (name: string) =>
      rows
        .find((r) => r.startsWith(`${name},`))!
        .split(',')
        .at(-1);
    expect(amountOf('Earnings')).toBe(cents(paid.earnings));
    expect(amountOf('Closing balance')).toBe(cents(paid.closingBalance));
    // The lines add up to the earnings, to the cent (each line is rounded once, the total is the statement's).
    const lines = rows.filter((r) => r.startsWith('earnings,')).map((r) => Number(r.split(',').at(-1)));
    expect(Math.abs(lines.reduce((a, b) => a + b, 0) - paid.earnings)).toBeLessThan(0.005 * lines.length + 1e-9);
  });
});

test('Finance reads the payments; a Viewer has no such page, and no file', async ({ openAs }) => {
  const finance = await openAs('finance');
  await finance.goto('/payments');
  await expect(finance.getByRole('heading', { name: 'Payments', level: 1 })).toBeVisible();
  await expect(finance.getByTestId('statement-row').first()).toBeVisible();

  const viewer = await openAs('viewer');
  await viewer.goto('/');
  await expect(viewer.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Payments' })).toHaveCount(0);
  await viewer.goto('/payments');
  await expect(
    viewer.getByText('Statements and payments are for the account’s Owners and Finance members'),
  ).toBeVisible();
  const month = new Date().toISOString().slice(0, 7);
  const file = await viewer.context().request.get(`/payments/${month}/statement.pdf`);
  expect(file.status()).toBe(403);
  expect(await file.text()).toContain('needs the Owner or Finance role; you are Viewer');
});

test.describe('the operator', () => {
  test.use({ storageState: authFile('admin') });

  test('Payouts: closing a closed month changes nothing; a bad file is refused line by line; a payment is recorded', async ({
    page,
    openAs,
  }) => {
    test.setTimeout(90_000);
    await page.goto('/admin/payouts');
    await expect(page.getByRole('heading', { name: 'Payouts', level: 1 })).toBeVisible();
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Close month' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Nothing changed' })).toBeVisible();

    await page.getByLabel('Payments file (CSV)').setInputFiles({
      name: 'payments.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('account,month,amount,paid_at,reference\nnobody@example.com,2020-01,1.00,2020-02-01,X\n'),
    });
    await page.getByRole('button', { name: 'Record payments' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'nothing was recorded' })).toBeVisible();

    const rivalRows = page.getByTestId('unpaid-row').filter({ hasText: USERS.rival.email });
    const before = await rivalRows.count();
    expect(before, 'the seed leaves the rival an amount due').toBeGreaterThan(0);
    const row = rivalRows.first();
    const month = ((await row.locator('td').nth(1).textContent()) ?? '').trim();
    await row.getByRole('button', { name: /^Record payment/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Reference').fill('E2E-TRANSFER-1');
    await dialog.getByRole('button', { name: 'Record payment' }).click();
    // The row leaves the list, its dialog with it; the page says what was recorded.
    await expect(
      page.getByRole('main').getByRole('status').filter({ hasText: 'Recorded the payment of $' }),
    ).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(rivalRows).toHaveCount(before - 1);

    const rival = await openAs('rival');
    await rival.goto(`/payments/${month}`);
    await expect(rival.getByText('Paid on')).toContainText('E2E-TRANSFER-1');
  });
});
