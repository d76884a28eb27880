import {
  Banknote,
  ClipboardCheck,
  DatabaseZap,
  FileText,
  KeyRound,
  TrendingDown,
  TrendingUp,
  type LucideIcon,
} from 'lucide-react';
import Link from 'next/link';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import type { AlertResponse } from '@/lib/alerts';
import { ALERT_KIND_LABELS } from '@/lib/dashboard/alerts';
import { viewHref, type SearchParams } from '@/lib/dashboard/url';
import { formatAgo, formatDay } from '@/lib/shared/format';
import { AcknowledgeButton } from './acknowledge-button';

const LOOKS: Record<AlertResponse['kind'], { icon: LucideIcon; tone: BadgeTone }> = {
  'revenue.drop': { icon: TrendingDown, tone: 'red' },
  'revenue.spike': { icon: TrendingUp, tone: 'green' },
  'data.missing': { icon: DatabaseZap, tone: 'amber' },
  'statement.finalized': { icon: FileText, tone: 'blue' },
  'payment.recorded': { icon: Banknote, tone: 'green' },
  'site.status_changed': { icon: ClipboardCheck, tone: 'blue' },
  'key.expiring': { icon: KeyRound, tone: 'amber' },
};

/** Where an alert's "look closer" leads: the Countries page of its day (and site), or the page it is about. */
function detailHref(alert: AlertResponse, params: SearchParams): { href: string; label: string } | null {
  const site = alert.siteId ? { sites: alert.siteId } : { sites: null };
  if (alert.kind === 'revenue.drop' || alert.kind === 'revenue.spike') {
    const href = viewHref('/countries', params, { from: alert.day, to: alert.day, ...site, country: null });
    return { href, label: 'Countries that day' };
  }
  if (alert.kind === 'data.missing') return { href: viewHref('/sites', params, { ...site }), label: 'Sites' };
  if (alert.kind === 'statement.finalized' || alert.kind === 'payment.recorded') {
    return { href: viewHref('/payments', params), label: 'Payments' };
  }
  if (alert.kind === 'key.expiring') return { href: viewHref('/keys', params), label: 'API keys' };
  return null;
}

/** The alerts, newest first: what happened in words, when, a link to look closer, and "Acknowledge". */
export function AlertsList({
  alerts,
  params,
  readOnly,
}: {
  alerts: AlertResponse[];
  params: SearchParams;
  /** An operator viewing a publisher: nothing can be acknowledged. */
  readOnly: boolean;
}) {
  const now = new Date();
  return (
    <Card>
      <ul className="divide-y divide-zinc-200 dark:divide-zinc-800" aria-label="Alerts">
        {alerts.map((alert) => {
          const { icon: Icon, tone } = LOOKS[alert.kind];
          const more = detailHref(alert, params);
          const label = ALERT_KIND_LABELS[alert.kind];
          return (
            <li
              key={alert.id}
              className="flex flex-wrap items-start gap-3 px-4 py-4 sm:flex-nowrap"
              data-alert-kind={alert.kind}
            >
              <Icon aria-hidden className="mt-0.5 size-5 shrink-0 text-zinc-500 dark:text-zinc-400" />
              <div className="min-w-0 flex-1 space-y-1">
                <div className="flex flex-wrap items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
                  <Badge tone={tone}>{label}</Badge>
                  {alert.day && <span>{formatDay(alert.day)}</span>}
                  <span aria-hidden>·</span>
                  <time dateTime={alert.createdAt}>{formatAgo(new Date(alert.createdAt), now)}</time>
                </div>
                <p className="text-sm text-zinc-900 dark:text-zinc-100">{alert.message}</p>
                {more && (
                  <Link
                    href={more.href}
                    className="text-accent-700 dark:text-accent-300 text-sm font-medium hover:underline"
                  >
                    {more.label}
                    <span className="sr-only"> for this alert</span> →
                  </Link>
                )}
              </div>
              <div className="shrink-0">
                {alert.state === 'open' ? (
                  readOnly ? (
                    <Badge tone="amber">Open</Badge>
                  ) : (
                    <AcknowledgeButton
                      alertId={alert.id}
                      what={`${label}${alert.day ? ` of ${formatDay(alert.day)}` : ''}`}
                    />
                  )
                ) : (
                  <span className="text-xs text-zinc-600 dark:text-zinc-400">
                    Acknowledged {formatAgo(new Date(alert.acknowledgedAt!), now)}
                  </span>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
