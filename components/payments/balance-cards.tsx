import { Card } from '@/components/ui/card';
import { monthLabel, type BalanceResponse } from '@/lib/payments';
import { formatDay, formatUsd } from '@/lib/shared/format';

/** Unpaid balance, the next payment, progress to the threshold and what was paid: the page's first answers. */
export function BalanceCards({ balance }: { balance: BalanceResponse }) {
  const progress = balance.threshold > 0 ? Math.min(1, Math.max(0, balance.towardThreshold / balance.threshold)) : 1;
  const next = balance.nextPayment;
  return (
    <div className="mb-6 grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <Card className="p-4" data-testid="unpaid-balance" data-value={balance.balance}>
        <h2 className="text-sm text-zinc-600 dark:text-zinc-400">Unpaid balance</h2>
        <p className="mt-1 text-2xl font-semibold tabular-nums">{formatUsd(balance.balance)}</p>
        <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
          {formatUsd(balance.finalizedUnpaid)} finalized · {formatUsd(balance.estimated)} estimated
        </p>
      </Card>
      <Card className="p-4" data-testid="next-payment">
        <h2 className="text-sm text-zinc-600 dark:text-zinc-400">Next payment</h2>
        {next ? (
          <>
            <p className="mt-1 text-2xl font-semibold tabular-nums">{formatUsd(next.amount)}</p>
            <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
              Expected {formatDay(next.expectedOn)} · {next.estimated ? 'estimated, ' : ''}for{' '}
              {monthLabel(`${next.month}-01`)}
            </p>
          </>
        ) : (
          <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
            None due yet: payments start once a month closes at or above the threshold.
          </p>
        )}
      </Card>
      <Card className="p-4">
        <h2 id="threshold-label" className="text-sm text-zinc-600 dark:text-zinc-400">
          Toward the {formatUsd(balance.threshold)} threshold
        </h2>
        <p className="mt-1 text-2xl font-semibold tabular-nums">{formatUsd(balance.towardThreshold)}</p>
        <div
          role="progressbar"
          aria-labelledby="threshold-label"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(progress * 100)}
          className="mt-2 h-2 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
        >
          <div className="h-full rounded-full bg-accent-600" style={{ width: `${progress * 100}%` }} />
        </div>
        <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
          Carried over {formatUsd(balance.carriedOver)} + this month’s estimate
        </p>
      </Card>
      <Card className="p-4">
        <h2 className="text-sm text-zinc-600 dark:text-zinc-400">Paid to date</h2>
        <p className="mt-1 text-2xl font-semibold tabular-nums">{formatUsd(balance.paidToDate)}</p>
      </Card>
    </div>
  );
}
