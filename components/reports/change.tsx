import { cn } from '@/components/ui/cn';
import { formatPct, relativeChange } from '@/lib/shared/format';

const ARROWS = { flat: "before:content-['–']", up: "before:content-['↑']", down: "before:content-['↓']" };

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
  // The arrow is drawn by CSS: a table shows a hundred of these, and as SVG icons they were 40 KB of the
  // Countries page. Being no text, it stays out of the figure's text, as the icon did.
  const arrow = flat ? ARROWS.flat : change > 0 ? ARROWS.up : ARROWS.down;
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
      <span aria-hidden className={arrow} />
      {text}
      {against && <span className="font-normal text-zinc-600 dark:text-zinc-400">&nbsp;vs&nbsp;{against}</span>}
    </span>
  );
}
