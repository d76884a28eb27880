import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** WCAG 2.0 and 2.1, levels A and AA. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * The rules of WCAG_TAGS that read colours (axe-core's metadata: the only two that mention colour or contrast).
 * On the same DOM, a colour scheme can change only their outcome: the dark theme is CSS alone.
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

type Scheme = 'light' | 'dark';

async function expectNone(page: Page, builder: AxeBuilder, what: string) {
  const results = await builder.analyze();
  const violations = results.violations.map((v) => ({
    rule: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ')}`),
  }));
  expect(violations, `axe violations on ${what}`).toEqual([]);
  return results;
}

/** Runs axe on the page as it is now and fails with a readable list of what it found. */
export async function expectNoViolations(page: Page, what: string) {
  // After a server action, Next.js re-renders the page's metadata: for a moment the <title> is not there.
  // Wait for the settled page (a page without a title still fails, here or in axe's document-title rule).
  await expect(page, `${what} has a title`).toHaveTitle(/\S/);
  const results = await expectNone(page, new AxeBuilder({ page }).withTags(WCAG_TAGS), what);
  expect(results.passes.length, `axe checked ${what}`).toBeGreaterThan(10);
}

/**
 * axe on the page as it is now, in both colour schemes: every rule in the scheme it is shown in, then, switched to
 * the other scheme, the colour rules, and back. The rest would answer the same on the same DOM (checked here), so
 * running them twice would find nothing more: it cost about half a second a page.
 */
export async function expectNoViolationsInBothSchemes(page: Page, what: string) {
  const dark = await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches);
  const [shown, other]: Scheme[] = dark ? ['dark', 'light'] : ['light', 'dark'];
  await expectNoViolations(page, `${what}, ${shown}`);
  const dom = () => page.evaluate(() => document.documentElement.outerHTML);
  const before = await dom();
  await page.emulateMedia({ colorScheme: other });
  try {
    expect(await dom(), `${what}: the same page in the ${other} colour scheme`).toBe(before);
    await expectNone(page, new AxeBuilder({ page }).withRules(COLOUR_RULES), `${what}, ${other}`);
  } finally {
    await page.emulateMedia({ colorScheme: shown });
  }
}
