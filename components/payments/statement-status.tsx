import { Badge, type BadgeTone } from '@/components/ui/badge';
import type { StatementSummary } from '@/lib/payments';

const LOOK: Record<StatementSummary['status'], { tone: BadgeTone; label: string }> = {
  estimated: { tone: 'amber', label: 'Estimated' },
  finalized: { tone: 'blue', label: 'Finalized' },
  paid: { tone: 'green', label: 'Paid' },
};

/** A statement's status as a badge: estimated (figures still move), finalized (frozen), paid. */
export function StatementStatus({ status }: { status: string }) {
  const look = LOOK[status as StatementSummary['status']] ?? LOOK.estimated;
  return <Badge tone={look.tone}>{look.label}</Badge>;
}
