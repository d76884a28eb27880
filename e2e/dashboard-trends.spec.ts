import {
  addDays,
  apiTotals,
  authFile,
  createKeyAs,
  expect,
  renderCharts,
  shownRange,
  test,
  uniqueLabel,
  waitForHydration,
} from './support/dashboard';

/**
 * Trends (issue 10, points 3 and 6): the chart switches between the five metrics, with the comparison line, in
 * the URL; "All time" reaches back to the account's first day of data; every page says when its data last
 * changed.
 */
test.use({ storageState: authFile('demo') });

let key: string;
test.beforeAll(async ({ browser }) => {
  ({ key } = await createKeyAs(browser, 'demo', { label: uniqueLabel('e2e trends') }));
});

const int = new Intl.NumberFormat('en-US');

test('the chart switches metric in place, keeps the comparison line, and the URL remembers it', async ({
  page,
  request,
}) => {
  await page.goto('/?from=2026-03-01&to=2026-03-31');
  await waitForHydration(page);
  const metrics = page.getByRole('group', { name: 'Chart metric' });
  await expect(metrics.getByRole('button', { name: 'Revenue' })).toHaveAttribute('aria-pressed', 'true');

  await metrics.getByRole('button', { name: 'Impressions' }).click();
  await expect(metrics.getByRole('button', { name: 'Impressions' })).toHaveAttribute('aria-pressed', 'true');
  await expect(metrics.getByRole('button', { name: 'Revenue' })).toHaveAttribute('aria-pressed', 'false');
  await expect(page).toHaveURL(/metric=impressions/);
  await expect(page.getByRole('heading', { name: 'Impressions per day' })).toBeVisible();
  const totals = await apiTotals(request, key, { from: '2026-03-01', to: '2026-03-31' });
  const figure = page.getByRole('figure', { name: /^Impressions per day, chart:/ });
  await expect(figure).toHaveAccessibleName(
    `Impressions per day, chart: ${int.format(totals.totalImpressions)} over 31 days`,
  );
  await renderCharts(page);
  // The legend names both lines: the metric and the compared month by its dates.
  await expect(figure.locator('.recharts-legend-wrapper')).toContainText('Impressions');
  await expect(figure.locator('.recharts-legend-wrapper')).toContainText('Feb 1 – Feb 28, 2026');

  // A ratio has no total: its summary gives the range of its daily values.
  await metrics.getByRole('button', { name: 'Fill rate' }).click();
  await expect(
    page.getByRole('figure', { name: /^Fill rate per day, chart: from \d+\.\d% to \d+\.\d% a day/ }),
  ).toBeVisible();
  await expect(page).toHaveURL(/metric=fillRate/);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Fill rate per day' })).toBeVisible();
  await expect(
    page.getByRole('group', { name: 'Chart metric' }).getByRole('button', { name: 'Fill rate' }),
  ).toHaveAttribute('aria-pressed', 'true');

  // The tooltip leads with the chosen metric and the compared day beside it.
  await renderCharts(page);
  const chart = page.getByRole('figure', { name: /^Fill rate per day/ }).locator('.recharts-wrapper');
  const box = (await chart.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const tooltip = chart.locator('.recharts-tooltip-wrapper');
  await expect(tooltip).toContainText(/Fill rate\d+\.\d%\w{3}, Feb \d+, 2026\d+\.\d%Revenue/);
});

test('"All time" starts on the first day with data, or as far back as a range may reach', async ({ page, request }) => {
  await page.goto('/');
  const before = await shownRange(page);
  await page.getByLabel('Date range').selectOption({ label: 'All time' });
  // (The select may then name another preset of the same days: the demo data began a year ago.)
  await expect(page).toHaveURL(/from=/);
  const { from, to } = await shownRange(page);
  expect(from < before.from).toBe(true);
  expect(to).toBe(new Date().toISOString().slice(0, 10));
  const days = (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;
  if (days < 731) {
    // Nothing before the first day: the range is all the data there is.
    const before = await apiTotals(request, key, { from: addDays(from, -365), to: addDays(from, -1) });
    expect(before.totalRequests).toBe(0);
    const first = await apiTotals(request, key, { from, to: from });
    expect(first.totalRequests).toBeGreaterThan(0);
  } else {
    expect(days).toBe(731);
  }
});

test('every report page says when its data last changed', async ({ page }) => {
  for (const path of ['/', '/sites', '/countries']) {
    await page.goto(path);
    const updated = page.getByTestId('data-updated');
    await expect(updated).toHaveText(/^Data updated (just now|\d+ minutes? ago|\d+ hours? ago)$/);
    const when = Date.parse((await updated.locator('time').getAttribute('datetime'))!);
    expect(Date.now() - when).toBeLessThan(86_400_000);
  }
});

test('the overview downloads by day, by site, by country and rows for the range, with totals', async ({ page }) => {
  const [from, to] = ['2026-03-01', '2026-03-31'];
  await page.goto(`/?from=${from}&to=${to}&country=FR`);
  await page.getByRole('button', { name: 'Download' }).click();
  const menu = page.getByRole('dialog', { name: 'Download CSV' });
  const links = menu.getByRole('link');
  await expect(links).toHaveText([/^By day \(CSV\)/, /^By site \(CSV\)/, /^By country \(CSV\)/, /^Rows \(CSV\)/]);
  const [download] = await Promise.all([page.waitForEvent('download'), links.first().click()]);
  expect(download.suggestedFilename()).toBe(`daily-revenue_${from}_${to}_FR.csv`);
  const text = await (await page.request.get(`/export/daily?from=${from}&to=${to}&country=FR`)).text();
  const lines = text.trim().split('\n');
  expect(lines).toHaveLength(31 + 2);
  // The cards' figures, to the cent.
  const cards = await page.getByTestId('kpi-revenue').getAttribute('data-value');
  const total = lines.at(-1)!.split(',');
  expect(total[0]).toBe('Total');
  expect(total[1]).toBe((Math.round(Number(cards) * 100) / 100).toFixed(2));
  // Every row of March in France, one per site and day.
  const rows = await page.request.get(`/export/rows?from=${from}&to=${to}&country=FR`);
  expect(rows.headers()['content-disposition']).toContain(`revenue-rows_${from}_${to}_FR.csv`);
  const rowLines = (await rows.text()).trim().split('\n');
  expect(rowLines[0]).toBe(
    'Day,Site,Site ID,Country,Code,Revenue (USD),Impressions,Ad requests,Clicks,eCPM (USD),Fill rate (%)',
  );
  expect(rowLines.slice(1).every((line) => line.includes(',France,FR,'))).toBe(true);
  expect(rowLines.length - 1).toBe(31 * 5);
});
