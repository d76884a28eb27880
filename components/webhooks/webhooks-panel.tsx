import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { WEBHOOK_EVENT_LABELS } from '@/lib/dashboard/event-labels';
import type { loadWebhooks } from '@/lib/dashboard/webhooks';
import { formatAgo } from '@/lib/shared/format';
import type { WebhookEventType } from '@/lib/shared/events';
import { WebhookActions } from './webhook-actions';

type Loaded = Awaited<ReturnType<typeof loadWebhooks>>;

const STATUS_TONE: Record<string, BadgeTone> = { delivered: 'green', pending: 'amber', failed: 'red' };

/** Each webhook: where it goes, what it sends, whether it is on, its latest deliveries and its actions. */
export function WebhooksPanel({ webhooks, readOnly }: { webhooks: Loaded; readOnly: boolean }) {
  const now = new Date();
  if (webhooks.length === 0) {
    return (
      <Card className="px-4 py-10 text-center text-sm text-zinc-600 dark:text-zinc-400">
        No webhooks yet. Add one to have alerts and data updates POSTed to your own systems as they happen.
      </Card>
    );
  }
  return (
    <ul className="space-y-4" aria-label="Webhooks">
      {webhooks.map(({ webhook, deliveries }) => (
        <li key={webhook.id}>
          <Card className="space-y-3 p-4">
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div className="min-w-0 space-y-1">
                <p className="font-mono text-sm break-all">{webhook.url}</p>
                {webhook.description && (
                  <p className="text-sm text-zinc-600 dark:text-zinc-400">{webhook.description}</p>
                )}
                <p className="text-xs text-zinc-600 dark:text-zinc-400">
                  {webhook.events.map((e) => WEBHOOK_EVENT_LABELS[e as WebhookEventType]).join(' · ')}
                </p>
              </div>
              {webhook.disabledAt ? <Badge tone="red">Turned off</Badge> : <Badge tone="green">Active</Badge>}
            </div>
            {webhook.disabledReason && (
              <p role="note" className="text-sm text-red-800 dark:text-red-300">
                Turned off {formatAgo(new Date(webhook.disabledAt!), now)}: {webhook.disabledReason} Remove it and add
                it again once the endpoint answers.
              </p>
            )}
            {deliveries.length > 0 && (
              <table className="w-full text-sm">
                <caption className="sr-only">Latest deliveries to {webhook.url}</caption>
                <thead className="text-left text-xs text-zinc-600 dark:text-zinc-400">
                  <tr>
                    <th className="py-1 font-medium">Event</th>
                    <th className="py-1 font-medium">Status</th>
                    <th className="py-1 text-right font-medium">Attempts</th>
                    <th className="py-1 text-right font-medium">Answer</th>
                    <th className="py-1 text-right font-medium">Queued</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
                  {deliveries.map((d) => (
                    <tr key={d.id} data-testid="webhook-delivery">
                      <td className="py-1.5 font-mono text-xs">{d.eventType}</td>
                      <td className="py-1.5">
                        <Badge tone={STATUS_TONE[d.status]}>{d.status}</Badge>
                      </td>
                      <td className="py-1.5 text-right tabular-nums">{d.attempts}</td>
                      <td className="py-1.5 text-right tabular-nums" title={d.lastError ?? undefined}>
                        {d.lastStatus ?? (d.lastError ? 'no answer' : '—')}
                      </td>
                      <td className="py-1.5 text-right text-zinc-600 dark:text-zinc-400">
                        {formatAgo(new Date(d.createdAt), now)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {!readOnly && <WebhookActions id={webhook.id} url={webhook.url} disabled={!!webhook.disabledAt} />}
          </Card>
        </li>
      ))}
    </ul>
  );
}
