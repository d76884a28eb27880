/**
 * The ledger's arithmetic, without a database: what the statements after the last finalized one say, given what
 * every site earned in every month (the rollup) and what the finalized statements already settled. Closing
 * writes these drafts; reading shows them as estimates. Integer micro-dollars throughout.
 *
 * Adjustments: for every month up to the last finalized one and every site, what it earned now minus what the
 * statements settled for it (its earnings line plus earlier adjustments). Any difference is an adjustment line on
 * the next statement still open, naming the month and site. So the statements' earnings and adjustments plus the
 * estimate always add up to every row's revenue.
 */
import { addDays } from '@/lib/query';
import { lastDayOf, nextMonth } from './months';

export interface PayoutRules {
  thresholdMicros: number;
  termsDays: number;
}

/** What a site earned in a month (`YYYY-MM-01`). */
export interface SiteMonth {
  month: string;
  siteId: string;
  micros: number;
}

export interface LineDraft {
  kind: 'earnings' | 'adjustment';
  /** The month the amount was earned in. */
  month: string;
  siteId: string;
  siteName: string;
  amountMicros: number;
}

export interface StatementDraft {
  month: string;
  openingMicros: number;
  earningsMicros: number;
  adjustmentsMicros: number;
  amountDueMicros: number;
  carriedMicros: number;
  thresholdMicros: number;
  dueOn: string | null;
  lines: LineDraft[];
}

/**
 * A statement's closing balance: what it opened with (the balance the one before carried) plus the month's
 * earnings and adjustments. The one place the sum is written: the drafts, the statements as read, their files,
 * pages and the list's SQL (which reads the value computed here) all take it from this function.
 */
export const closingOf = (s: Pick<StatementDraft, 'openingMicros' | 'earningsMicros' | 'adjustmentsMicros'>): number =>
  s.openingMicros + s.earningsMicros + s.adjustmentsMicros;

/** A finalized statement as far as the arithmetic needs it. */
export interface Settled {
  month: string;
  carriedMicros: number;
  lines: Pick<LineDraft, 'month' | 'siteId' | 'amountMicros'>[];
}

const keyOf = (month: string, siteId: string) => `${month}|${siteId}`;

function sumBy<T>(items: T[], key: (item: T) => string, amount: (item: T) => number): Map<string, number> {
  const sums = new Map<string, number>();
  for (const item of items) sums.set(key(item), (sums.get(key(item)) ?? 0) + amount(item));
  return sums;
}

/** The adjustments the next open statement carries: earned now minus settled, per finalized month and site. */
function pendingAdjustments(finalized: Settled[], actual: SiteMonth[], siteName: (id: string) => string): LineDraft[] {
  const last = finalized.at(-1)?.month;
  if (!last) return [];
  const earned = sumBy(
    actual.filter((a) => a.month <= last),
    (a) => keyOf(a.month, a.siteId),
    (a) => a.micros,
  );
  const settled = sumBy(
    finalized.flatMap((s) => s.lines),
    (l) => keyOf(l.month, l.siteId),
    (l) => l.amountMicros,
  );
  const lines: LineDraft[] = [];
  for (const key of new Set([...earned.keys(), ...settled.keys()])) {
    const amountMicros = (earned.get(key) ?? 0) - (settled.get(key) ?? 0);
    if (amountMicros === 0) continue;
    const [month, siteId] = key.split('|');
    lines.push({ kind: 'adjustment', month, siteId, siteName: siteName(siteId), amountMicros });
  }
  return lines.sort((a, b) => a.month.localeCompare(b.month) || a.siteName.localeCompare(b.siteName));
}

/**
 * The statements after the last finalized one, month by month through `through`: an account's first statement
 * is for its first month with revenue. Each opens with the balance the one before carried; a closing balance of
 * at least the threshold is due `termsDays` after the month's end, a smaller one is carried over.
 */
export function draftStatements(input: {
  finalized: Settled[];
  actual: SiteMonth[];
  siteName: (id: string) => string;
  through: string;
  rules: PayoutRules;
}): StatementDraft[] {
  const { finalized, actual, siteName, through, rules } = input;
  const last = finalized.at(-1);
  const earning = actual.filter((a) => a.micros !== 0).map((a) => a.month);
  const first = last ? nextMonth(last.month) : earning.length > 0 ? earning.reduce((a, b) => (a < b ? a : b)) : null;
  if (!first || first > through) return [];
  const byMonth = new Map<string, SiteMonth[]>();
  for (const a of actual) if (a.micros !== 0) byMonth.set(a.month, [...(byMonth.get(a.month) ?? []), a]);

  const drafts: StatementDraft[] = [];
  let adjustments = pendingAdjustments(finalized, actual, siteName);
  let opening = last?.carriedMicros ?? 0;
  for (let month = first; month <= through; month = nextMonth(month)) {
    const earnings: LineDraft[] = (byMonth.get(month) ?? [])
      .map((a) => ({
        kind: 'earnings' as const,
        month,
        siteId: a.siteId,
        siteName: siteName(a.siteId),
        amountMicros: a.micros,
      }))
      .sort((a, b) => a.siteName.localeCompare(b.siteName));
    const earningsMicros = earnings.reduce((sum, l) => sum + l.amountMicros, 0);
    const adjustmentsMicros = adjustments.reduce((sum, l) => sum + l.amountMicros, 0);
    const closing = closingOf({ openingMicros: opening, earningsMicros, adjustmentsMicros });
    const payable = closing > 0 && closing >= rules.thresholdMicros;
    drafts.push({
      month,
      openingMicros: opening,
      earningsMicros,
      adjustmentsMicros,
      amountDueMicros: payable ? closing : 0,
      carriedMicros: payable ? 0 : closing,
      thresholdMicros: rules.thresholdMicros,
      dueOn: payable ? addDays(lastDayOf(month), rules.termsDays) : null,
      lines: [...earnings, ...adjustments],
    });
    opening = payable ? 0 : closing;
    adjustments = [];
  }
  return drafts;
}
