/** Calendar months (UTC) as the ledger keeps them: the first day, `YYYY-MM-01`; the API names them `YYYY-MM`. */
import { addDays } from '@/lib/query';
import { formatDay } from '@/lib/shared/format';

/** `YYYY-MM`, as the API, the CLI and payment files name a month. */
export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;
export const isMonthName = (value: string) => MONTH_PATTERN.test(value);

export const monthOf = (day: string) => `${day.slice(0, 7)}-01`;
export const monthName = (month: string) => month.slice(0, 7);
export const monthFromName = (name: string) => `${name}-01`;

function monthsAfter(month: string, n: number): string {
  const d = new Date(`${month}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + n);
  return d.toISOString().slice(0, 10);
}

export const nextMonth = (month: string) => monthsAfter(month, 1);
export const previousMonth = (month: string) => monthsAfter(month, -1);

/** The month's last day. */
export const lastDayOf = (month: string) => addDays(nextMonth(month), -1);

/** "October 2026", for pages, e-mail and the PDF. */
export const monthLabel = (month: string) => formatDay(month, { month: 'long', year: 'numeric' });
