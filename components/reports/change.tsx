import { ArrowDownRight, ArrowUpRight, Minus } from 'lucide-react';
import { cn } from '@/components/ui/cn';
import { formatPct, relativeChange } from '@/lib/shared/format';

/**
 * Change against the comparison period: arrow, sign and words, so colour is never the only signal. `against`
 * names the compared period by its dates ("vs Oct 1 – Oct 22, 2026"); a table column leaves it to its header.
 */
export function Change({ current, previous, against }: { current: number; previous: number; against?: string }) {
  const change = relativeChange(current, previous);
  if (change === null) {
    return (
      <span className="text-xs text-zinc-600 dark:text-zinc-400">{against ? `No data for ${against}` : 'New'}</span>
    );
  }
  const flat = Math.abs(change) < 0.0005;
  const Icon = flat ? Minus : change > 0 ? ArrowUpRight : ArrowDownRight;
  const text = flat ? 'No change' : `${change > 0 ? '+' : '−'}${formatPct(Math.abs(change))}`;
  return (
    <span
      className={cn(
        'inline-flex flex-wrap items-center gap-x-0.5 text-xs font-medium whitespace-nowrap',
        flat
          ? 'text-zinc-600 dark:text-zinc-400'
          : change > 0
            ? 'text-emerald-700 dark:text-emerald-400'
            : 'text-red-700 dark:text-red-400',
      )}
    >
      <Icon aria-hidden className="size-3.5" />
      {text}
      {against && <span className="font-normal text-zinc-600 dark:text-zinc-400">&nbsp;vs&nbsp;{against}</span>}
    </span>
  );
}
