import type { Metadata } from 'next';
import { PageHeader } from '@/components/layout/page-header';
import { CloseMonthForm, PaymentsFileForm, UnpaidTable } from '@/components/payments/payouts';
import { Card } from '@/components/ui/card';
import { notFound } from 'next/navigation';
import { isOperator } from '@/lib/access';
import { requirePerson } from '@/lib/dashboard/session';
import { listPayouts, monthName } from '@/lib/payments';
import { todayUtc } from '@/lib/query';
import { dollars } from '@/lib/shared/money';

export const metadata: Metadata = { title: 'Payouts · Publisher Portal' };

/** The month-end close and the payments: what is owed, to whom, since when. */
export default async function PayoutsPage() {
  const { principal } = await requirePerson();
  // Not "forbidden": to anyone whose role does not grant it, this page does not exist.
  if (!isOperator(principal, 'pay')) notFound();
  const { unpaid, closedThrough } = await listPayouts(principal);
  const today = todayUtc();
  return (
    <>
      <PageHeader
        title="Payouts"
        description={
          closedThrough
            ? `Statements are finalized through ${monthName(closedThrough)}. Close the next month once its revenue is in.`
            : 'No month has been closed yet.'
        }
      />
      <div className="mb-6 grid gap-4 lg:grid-cols-2">
        <Card className="p-4">
          <CloseMonthForm today={today} />
        </Card>
        <Card className="p-4">
          <PaymentsFileForm />
        </Card>
      </div>
      <Card className="relative md:overflow-x-auto" tabIndex={0} role="region" aria-label="Amounts due">
        <h2 className="px-4 pt-4 text-base font-semibold">Amounts due ({unpaid.length})</h2>
        <UnpaidTable
          today={today}
          unpaid={unpaid.map((u) => ({ ...u, month: monthName(u.month), amount: dollars(u.amountDueMicros) }))}
        />
      </Card>
    </>
  );
}
