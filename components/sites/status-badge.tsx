import { Badge, type BadgeTone } from '@/components/ui/badge';

const TONES: Record<string, BadgeTone> = { pending: 'amber', approved: 'blue', live: 'green' };
const LABELS: Record<string, string> = { pending: 'Pending review', approved: 'Approved', live: 'Live' };

/** A site's review status in words (the colour is never the only signal). */
export function SiteStatusBadge({ status }: { status: string | null }) {
  const key = status ?? 'pending';
  return <Badge tone={TONES[key] ?? 'gray'}>{LABELS[key] ?? key}</Badge>;
}
