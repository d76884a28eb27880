import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** WCAG 2.0 and 2.1, levels A and AA. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** Runs axe on the page as it is now and fails with a readable list of what it found. */
export async function expectNoViolations(page: Page, what: string) {
  // After a server action, Next.js re-renders the page's metadata: for a moment the <title> is not there.
  // Wait for the settled page (a page without a title still fails, here or in axe's document-title rule).
  await expect(page, `${what} has a title`).toHaveTitle(/\S/);
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const violations = results.violations.map((v) => ({
    rule: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ')}`),
  }));
  expect(violations, `axe violations on ${what}`).toEqual([]);
  expect(results.passes.length, `axe checked ${what}`).toBeGreaterThan(10);
}
