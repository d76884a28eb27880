import type { SiteHistoryEntry } from '@/lib/sites';

const MOVE_WORDS: Record<string, string> = {
  'pending>approved': 'Approved',
  'approved>live': 'Went live',
  'live>approved': 'Back to approved',
};

/** One event in words: what happened to the site. */
function whatHappened(e: SiteHistoryEntry): string {
  if (e.kind === 'site.created') return `Added as ${e.to ?? 'pending'}`;
  if (e.kind === 'site.deleted') return 'Deleted';
  if (e.kind === 'site.updated') return `Edited: ${e.changed.join(', ')}`;
  if (e.to === 'pending') return 'Sent back to pending';
  return MOVE_WORDS[`${e.from}>${e.to}`] ?? `${e.from} → ${e.to}`;
}

const ACTOR_WORDS: Record<SiteHistoryEntry['actorKind'], string> = {
  admin: 'an operator',
  key: 'an API key',
  user: 'the publisher',
  system: 'the command line',
};
const who = (e: SiteHistoryEntry) => e.actorLabel ?? ACTOR_WORDS[e.actorKind];

/** A site's history, oldest first, as the activity log holds it. */
export function SiteHistory({ entries }: { entries: SiteHistoryEntry[] }) {
  if (entries.length === 0) {
    return <p className="text-sm text-zinc-600 dark:text-zinc-400">No recorded changes yet.</p>;
  }
  return (
    <ol className="space-y-2 border-l border-zinc-200 pl-4 text-sm dark:border-zinc-700">
      {entries.map((e, i) => (
        <li key={`${e.at}-${i}`}>
          <span className="font-medium text-zinc-900 dark:text-zinc-100">{whatHappened(e)}</span>
          <span className="text-zinc-600 dark:text-zinc-400">
            {' '}
            · <time dateTime={e.at}>{e.at.slice(0, 16).replace('T', ' ')} UTC</time> · by {who(e)}
          </span>
          {e.reason && <p className="mt-0.5 text-zinc-700 dark:text-zinc-300">Reason: {e.reason}</p>}
        </li>
      ))}
    </ol>
  );
}
