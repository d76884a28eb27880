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
  // Colour and arrow come from `.change` (app/globals.css): a table shows a hundred of these, and their
  // utilities and arrow elements were nearly half of the Countries page's table.
  const text = flat ? 'No change' : `${change > 0 ? '+' : '−'}${formatPct(Math.abs(change))}`;
  return (
    <span className="change" data-trend={flat ? 'flat' : change > 0 ? 'up' : 'down'}>
      {text}
      {against && <span className="font-normal text-zinc-600 dark:text-zinc-400">&nbsp;vs&nbsp;{against}</span>}
    </span>
  );
}
