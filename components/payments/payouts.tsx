'use client';

import { useState, useTransition } from 'react';
import { closeMonthAction, recordPaymentAction } from '@/lib/dashboard/actions/payouts';
import { messageOf, type ActionResult } from '@/lib/dashboard/action-result';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { Field, inputClass } from '@/components/ui/field';
import { PlainTableHead } from '@/components/ui/plain-table-head';
import { keepingFields } from '@/components/ui/submit';
import { formatDay } from '@/lib/shared/format';

type PayoutResult = ActionResult<string>;

/** An action's answer under its form: the message, and a file's refused lines one by one. */
function Outcome({ result }: { result: PayoutResult | null }) {
  const refused = result && !result.ok && result.error.errors;
  const lines = refused && refused.length > 1 ? refused : undefined;
  return (
    <div role="status" className="min-h-5 text-sm">
      {result && (
        <>
          <p className={result.ok ? 'text-emerald-700 dark:text-emerald-400' : 'text-red-700 dark:text-red-400'}>
            {messageOf(result)}
          </p>
          {lines && (
            <ul className="mt-1 list-disc pl-5 text-red-700 dark:text-red-400">
              {lines
                .map((e) => `${e.line ? `Line ${e.line}, ` : ''}${e.parameter}: ${e.detail}`)
                .map((line) => (
                  <li key={line}>{line}</li>
                ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}

/** The twelve months before this one, newest first, as `YYYY-MM`. */
function closedMonths(today: string): string[] {
  const months: string[] = [];
  const d = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
  for (let i = 0; i < 12; i++) {
    d.setUTCMonth(d.getUTCMonth() - 1);
    months.push(d.toISOString().slice(0, 7));
  }
  return months;
}

/** "Close month": closes a month for every publisher account, after a confirmation. */
export function CloseMonthForm({ today }: { today: string }) {
  const months = closedMonths(today);
  const [month, setMonth] = useState(months[0]);
  const [result, setResult] = useState<PayoutResult | null>(null);
  const [pending, startTransition] = useTransition();
  return (
    <div className="space-y-3">
      <h2 className="text-base font-semibold">Close a month</h2>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Freezes every publisher’s statement of the month (and of any earlier month not closed yet). Later changes to it
        come as adjustments on the next statement. Closing it again changes nothing.
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <div className="space-y-1.5">
          <label htmlFor="close-month" className="block text-sm font-medium">
            Month
          </label>
          <select id="close-month" className={inputClass} value={month} onChange={(e) => setMonth(e.target.value)}>
            {months.map((m) => (
              <option key={m} value={m}>
                {formatDay(`${m}-01`, { month: 'long', year: 'numeric' })}
              </option>
            ))}
          </select>
        </div>
        <Button
          disabled={pending}
          onClick={() => startTransition(async () => setResult(await closeMonthAction(month)))}
        >
          {pending ? 'Closing…' : 'Close month'}
        </Button>
      </div>
      <Outcome result={result} />
    </div>
  );
}

/** Payments from a CSV file: all recorded, or none with every refused line named. */
export function PaymentsFileForm() {
  const [result, setResult] = useState<PayoutResult | null>(null);
  const [pending, startTransition] = useTransition();
  return (
    <form
      className="space-y-3"
      onSubmit={keepingFields((form) => startTransition(async () => setResult(await recordPaymentAction(form))))}
    >
      <h2 className="text-base font-semibold">Record payments from a file</h2>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        CSV with the header <code>account,month,amount,paid_at,reference</code>; each line pays one finalized
        statement’s whole amount due. A file with any line that does not match is refused whole.
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <Field label="Payments file (CSV)" id="payments-file" name="file" type="file" accept=".csv,text/csv" required />
        <Button type="submit" disabled={pending}>
          {pending ? 'Recording…' : 'Record payments'}
        </Button>
      </div>
      <Outcome result={result} />
    </form>
  );
}

interface Unpaid {
  accountId: string;
  accountName: string;
  accountEmail: string;
  month: string;
  amount: string;
  dueOn: string | null;
}

/**
 * Amounts due, the earliest first, each with its "Record payment" dialog. A recorded payment's row leaves the
 * list (and its dialog with it), so what happened is said above the list.
 */
export function UnpaidTable({ unpaid, today }: { unpaid: Unpaid[]; today: string }) {
  const [recorded, setRecorded] = useState<PayoutResult | null>(null);
  return (
    <>
      <div className="px-4 pt-2">
        <Outcome result={recorded} />
      </div>
      {unpaid.length === 0 ? (
        <p className="p-10 text-center text-sm text-zinc-600 dark:text-zinc-400">Nothing is waiting for a payment.</p>
      ) : (
        <table className="stack-table w-full text-sm md:min-w-[44rem]">
          <caption className="sr-only">Amounts due, earliest first</caption>
          <PlainTableHead columns={['Publisher', 'Month', 'Amount due', 'Due']} numeric={['Amount due']} actions />
          <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
            {unpaid.map((u) => (
              <tr key={`${u.accountId}${u.month}`} data-testid="unpaid-row">
                <td className="px-4 py-3">
                  <span className="font-medium">{u.accountName}</span>
                  <br />
                  <span className="text-zinc-700 dark:text-zinc-300">{u.accountEmail}</span>
                </td>
                <td data-label="Month" className="px-4 py-3">
                  {u.month}
                </td>
                <td data-label="Amount due" className="px-4 py-3 text-right tabular-nums">
                  ${u.amount}
                </td>
                <td data-label="Due" className="px-4 py-3">
                  {u.dueOn ? formatDay(u.dueOn) : '—'}
                </td>
                <td className="px-4 py-3 text-right">
                  <RecordPayment unpaid={u} today={today} onRecorded={setRecorded} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function RecordPayment({
  unpaid: u,
  today,
  onRecorded,
}: {
  unpaid: Unpaid;
  today: string;
  onRecorded: (result: PayoutResult) => void;
}) {
  const [result, setResult] = useState<PayoutResult | null>(null);
  const [pending, startTransition] = useTransition();
  const label = `${u.accountName}, ${u.month}`;
  return (
    <Dialog onOpenChange={() => setResult(null)}>
      <DialogTrigger asChild>
        <Button variant="secondary">
          Record payment<span className="sr-only"> of {label}</span>
        </Button>
      </DialogTrigger>
      <DialogContent title={`Record the payment of ${label}`} description={`The whole amount due: $${u.amount}.`}>
        <form
          className="space-y-4"
          onSubmit={keepingFields((form) =>
            startTransition(async () => {
              const answer = await recordPaymentAction(form);
              setResult(answer);
              if (answer.ok) onRecorded(answer);
            }),
          )}
        >
          <input type="hidden" name="account" value={u.accountId} />
          <input type="hidden" name="month" value={u.month} />
          <input type="hidden" name="amount" value={u.amount} />
          <Field label="Paid on" id="paid-at" name="paidAt" type="date" defaultValue={today} max={today} required />
          <Field
            label="Reference"
            id="reference"
            name="reference"
            maxLength={200}
            required
            hint="E.g. the bank transfer’s"
          />
          <Button type="submit" disabled={pending || result?.ok}>
            {pending ? 'Recording…' : 'Record payment'}
          </Button>
          <Outcome result={result} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
