import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { PageHeader } from '@/components/layout/page-header';
import { ViewerFallback } from '@/components/layout/viewer-fallback';
import { StatementLines } from '@/components/payments/statement-lines';
import { StatementStatus } from '@/components/payments/statement-status';
import { buttonClass } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { can } from '@/lib/access';
import { requirePerson } from '@/lib/dashboard/session';
import { clearedViewHref, type SearchParams } from '@/lib/dashboard/url';
import { viewerOf } from '@/lib/dashboard/viewer';
import { getStatement, lastDayOf, monthLabel } from '@/lib/payments';
import { AppError } from '@/lib/shared/errors';
import { formatCents, formatDay } from '@/lib/shared/format';

export const metadata: Metadata = { title: 'Statement · Publisher Portal' };

/** One month's statement: its figures, its earnings by site, its adjustments, its files. */
export default async function StatementPage({
  params,
  searchParams,
}: {
  params: Promise<{ month: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const [{ month }, query] = await Promise.all([params, searchParams]);
  const viewer = await viewerOf(await requirePerson(), query);
  if (viewer.kind !== 'ready') {
    return <ViewerFallback viewer={viewer} title="Statement" path={`/payments/${month}`} params={query} />;
  }
  if (!can(viewer.principal, 'readStatements')) notFound();
  const found = await getStatement(viewer.principal, month).catch((err) => {
    if (err instanceof AppError && (err.code === 'not_found' || err.code === 'invalid')) notFound();
    throw err;
  });
  const { statement: s } = found;
  const href = (path: string) => clearedViewHref(path, query);
  const figures: [string, number][] = [
    ['Opening balance', s.openingMicros],
    ['Earnings', s.earningsMicros],
    ['Adjustments', s.adjustmentsMicros],
    ['Closing balance', s.closingMicros],
  ];
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href={href('/payments')} className="text-accent-700 hover:underline dark:text-accent-300">
          ← Payments
        </Link>
      </p>
      <PageHeader
        title={`Statement · ${monthLabel(s.month)}`}
        description={`${formatDay(s.month)} – ${formatDay(lastDayOf(s.month))}, UTC`}
        actions={
          <div className="flex gap-2">
            <a href={href(`/payments/${month}/statement.pdf`)} className={buttonClass('secondary')} download>
              Download PDF
            </a>
            <a href={href(`/payments/${month}/statement.csv`)} className={buttonClass('secondary')} download>
              Download CSV
            </a>
          </div>
        }
      />
      <Card className="mb-6 p-6">
        <div className="mb-4 flex flex-wrap items-center gap-3 text-sm">
          <StatementStatus status={s.status} />
          <span className="text-zinc-700 dark:text-zinc-300">
            {s.status === 'estimated'
              ? 'The month is not closed yet: these figures may still change.'
              : s.status === 'paid'
                ? `Paid on ${formatDay(s.paidOn!)}, reference ${s.paymentReference}.`
                : `Finalized ${formatDay(s.finalizedAt!.toISOString().slice(0, 10))}: these figures no longer change.`}
          </span>
        </div>
        <dl className="grid gap-x-8 gap-y-2 text-sm sm:grid-cols-2">
          {figures.map(([label, micros]) => (
            <div key={label} className="flex justify-between gap-4 border-b border-zinc-100 py-1 dark:border-zinc-800">
              <dt className="text-zinc-600 dark:text-zinc-400">{label}</dt>
              <dd className="tabular-nums" data-testid={`figure-${label}`}>
                {formatCents(micros)}
              </dd>
            </div>
          ))}
          <div className="flex justify-between gap-4 py-1 font-semibold sm:col-span-2">
            <dt>
              {s.amountDueMicros > 0
                ? `Amount due${s.dueOn ? `, ${s.paidOn ? 'was expected' : 'expected'} ${formatDay(s.dueOn)}` : ''}`
                : `Carried over: below the ${formatCents(s.thresholdMicros)} threshold`}
            </dt>
            <dd className="tabular-nums" data-testid="figure-due">
              {formatCents(s.amountDueMicros > 0 ? s.amountDueMicros : s.carriedMicros)}
            </dd>
          </div>
        </dl>
      </Card>
      <Card className="mb-6">
        <h2 className="px-4 pt-4 text-base font-semibold">Earnings by site</h2>
        {s.lines.some((l) => l.kind === 'earnings') ? (
          <StatementLines lines={s.lines} kind="earnings" />
        ) : (
          <p className="p-4 text-sm text-zinc-600 dark:text-zinc-400">No earnings this month.</p>
        )}
      </Card>
      {s.lines.some((l) => l.kind === 'adjustment') && (
        <Card>
          <h2 className="px-4 pt-4 text-base font-semibold">Adjustments to finalized months</h2>
          <p className="px-4 pt-1 text-sm text-zinc-600 dark:text-zinc-400">
            Revenue of months already finalized changed after they closed (a late import or a correction); the
            difference is settled here.
          </p>
          <StatementLines lines={s.lines} kind="adjustment" />
        </Card>
      )}
    </>
  );
}
