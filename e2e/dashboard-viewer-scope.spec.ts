import type { Page } from '@playwright/test';
import { DEMO_IDS } from '../db/seed-data';
import { DEMO_SITES, expect, kpiValues, renderCharts, test } from './support/dashboard';

/**
 * Issue 22, point 7: a Viewer limited to one site (the demo Viewer, Sky Hopper) reads exactly that site
 * everywhere. Each page element the Viewer sees is compared with what the Owner sees with that one site chosen:
 * the KPI cards' exact values, the charts' summaries, every table, the world map's figure for each country, each
 * sparkline's drawn line, and every download byte for byte. The other sites appear nowhere. The rows download
 * is account-wide, like the API's rows for a site-scoped key: not offered to such a Viewer, and refused.
 */
const SKY_HOPPER = DEMO_IDS.sites.skyHopper;
const OTHERS = DEMO_SITES.filter((name) => name !== 'Sky Hopper');

/** What a report page shows, element by element, in text a comparison can read. */
async function shown(page: Page) {
  const main = page.getByRole('main');
  return {
    tables: await main.locator('table').evaluateAll((tables) => tables.map((t) => t.textContent)),
    figures: await main.getByRole('figure').evaluateAll((figures) => figures.map((f) => f.getAttribute('aria-label'))),
    mapTitles: await main.locator('svg path title').allTextContents(),
    sparklines: await main
      .locator('svg[role="img"]')
      .evaluateAll((lines) => lines.map((svg) => `${svg.getAttribute('aria-label')} ${svg.innerHTML}`)),
  };
}

test('a one-site Viewer sees, on every page and in every download, exactly the Owner’s view of that site', async ({
  openAs,
}) => {
  test.setTimeout(120_000);
  const viewer = await openAs('viewer');
  const owner = await openAs('demo');
  for (const path of ['/', '/countries', '/sites']) {
    await viewer.goto(path);
    await owner.goto(`${path}?sites=${SKY_HOPPER}`);
    for (const page of [viewer, owner]) {
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      if (path === '/') await renderCharts(page);
      // The map's shapes are drawn in the browser after the page loads: compared before, one page had none yet.
      if (path === '/countries') await expect(page.getByRole('main').locator('svg path title').nth(100)).toBeAttached();
    }
    if (path === '/') expect(await kpiValues(viewer), 'KPI cards').toEqual(await kpiValues(owner));
    const seen = await shown(viewer);
    expect(seen, path).toEqual(await shown(owner));
    expect(seen.tables.join(' '), `${path} has figures`).toMatch(/\$\d/);
    if (path === '/countries') expect(seen.mapTitles.length, 'the map’s countries').toBeGreaterThan(100);
    if (path === '/sites') expect(seen.sparklines, 'one sparkline, Sky Hopper’s').toHaveLength(1);
    const text = (await viewer.getByRole('main').textContent()) ?? '';
    for (const other of OTHERS) expect(text, `${path} names no other site`).not.toContain(other);
  }

  // The rows are account-wide, as for a site-scoped API key: not offered, and refused by name.
  await viewer.getByRole('button', { name: 'Download' }).click();
  const menu = viewer.getByRole('dialog', { name: 'Download CSV' });
  await expect(menu.getByRole('link', { name: /By site/ })).toBeVisible();
  await expect(menu.getByRole('link', { name: /Rows/ })).toHaveCount(0);
  const rows = await viewer.context().request.get('/export/rows');
  expect(rows.status()).toBe(403);
  expect(await rows.text()).toContain('you may read only some of its sites');

  for (const report of ['daily', 'sites', 'countries']) {
    const mine = await viewer.context().request.get(`/export/${report}`);
    const owners = await owner.context().request.get(`/export/${report}?sites=${SKY_HOPPER}`);
    expect([mine.status(), owners.status()], report).toEqual([200, 200]);
    const body = await mine.text();
    expect(body, `the ${report} download`).toBe(await owners.text());
    expect(body.split('\n').length, `the ${report} download has rows`).toBeGreaterThan(2);
    for (const other of OTHERS) expect(body, `the ${report} download names no other site`).not.toContain(other);
  }
});
