/**
 * A statement as a PDF, made on the server with @react-pdf/renderer: the account, the period, the status, the
 * lines (earnings by site, then adjustments naming their month) and the totals. Money to the cent, rounded once
 * from micro-dollars (lib/shared/money.ts); the totals are the statement's own, never sums of rounded lines.
 * Both doors serve it (the API with Accept: application/pdf, the dashboard's download), so it lives here, above
 * the payments domain, which renders nothing.
 */
import { Document, Page, renderToBuffer, StyleSheet, Text, View } from '@react-pdf/renderer';
import { dollars } from '@/lib/shared/money';
import { formatDay } from '@/lib/shared/format';
import { lastDayOf, monthLabel, type AccountLedgerView, type AccountStatement } from '@/lib/payments';

const STATUS: Record<AccountStatement['status'], string> = {
  estimated: 'Estimated: the month is not closed yet, and its figures may still change',
  finalized: 'Finalized',
  paid: 'Paid',
};

const styles = StyleSheet.create({
  page: { padding: 48, fontSize: 10, fontFamily: 'Helvetica', color: '#18181b' },
  brand: { fontSize: 9, color: '#4338ca', textTransform: 'uppercase', letterSpacing: 1 },
  title: { fontSize: 18, fontFamily: 'Helvetica-Bold', marginTop: 6 },
  muted: { color: '#52525b' },
  facts: { marginTop: 18, marginBottom: 18, gap: 3 },
  row: { flexDirection: 'row', borderBottomWidth: 0.5, borderBottomColor: '#d4d4d8', paddingVertical: 5 },
  head: { fontFamily: 'Helvetica-Bold', borderBottomColor: '#18181b' },
  total: { fontFamily: 'Helvetica-Bold', borderBottomWidth: 0 },
  grow: { flexGrow: 1 },
  month: { width: 110 },
  amount: { width: 90, textAlign: 'right' },
  section: { marginTop: 16, marginBottom: 4, fontFamily: 'Helvetica-Bold', fontSize: 11 },
});

const usd = (micros: number) => `$${dollars(micros)}`.replace('$-', '-$');

type LineStyle = (typeof styles)[keyof typeof styles];

function Line({ label, month, micros, style }: { label: string; month?: string; micros: number; style?: LineStyle }) {
  return (
    <View style={style ? [styles.row, style] : styles.row}>
      <Text style={styles.grow}>{label}</Text>
      {month !== undefined && <Text style={styles.month}>{month}</Text>}
      <Text style={styles.amount}>{usd(micros)}</Text>
    </View>
  );
}

function StatementDocument({ view, statement: s }: { view: AccountLedgerView; statement: AccountStatement }) {
  const earnings = s.lines.filter((l) => l.kind === 'earnings');
  const adjustments = s.lines.filter((l) => l.kind === 'adjustment');
  return (
    <Document title={`Statement ${monthLabel(s.month)} · ${view.accountName}`} author="Publisher Portal">
      <Page size="A4" style={styles.page}>
        <Text style={styles.brand}>Publisher Portal</Text>
        <Text style={styles.title}>Earnings statement · {monthLabel(s.month)}</Text>
        <View style={styles.facts}>
          <Text>Account: {view.accountName}</Text>
          <Text style={styles.muted}>Account ID: {view.accountId}</Text>
          <Text>
            Period: {formatDay(s.month)} – {formatDay(lastDayOf(s.month))} (UTC)
          </Text>
          <Text>Status: {STATUS[s.status]}</Text>
          {s.paidOn && (
            <Text>
              Paid on {formatDay(s.paidOn)}, reference {s.paymentReference}
            </Text>
          )}
        </View>

        <Text style={styles.section}>Earnings by site</Text>
        <View style={[styles.row, styles.head]}>
          <Text style={styles.grow}>Site</Text>
          <Text style={styles.amount}>Amount (USD)</Text>
        </View>
        {earnings.length === 0 ? (
          <Line label="No earnings this month" micros={0} />
        ) : (
          earnings.map((l) => <Line key={l.siteId} label={l.siteName} micros={l.amountMicros} />)
        )}

        {adjustments.length > 0 && (
          <>
            <Text style={styles.section}>Adjustments to finalized months</Text>
            <View style={[styles.row, styles.head]}>
              <Text style={styles.grow}>Site</Text>
              <Text style={styles.month}>Month</Text>
              <Text style={styles.amount}>Amount (USD)</Text>
            </View>
            {adjustments.map((l) => (
              <Line
                key={`${l.month}${l.siteId}`}
                label={l.siteName}
                month={monthLabel(l.month)}
                micros={l.amountMicros}
              />
            ))}
          </>
        )}

        <Text style={styles.section}>Totals</Text>
        <Line label="Opening balance" micros={s.openingMicros} />
        <Line label="Earnings" micros={s.earningsMicros} />
        <Line label="Adjustments" micros={s.adjustmentsMicros} />
        <Line label="Closing balance" micros={s.closingMicros} style={styles.head} />
        {s.amountDueMicros > 0 ? (
          <Line
            label={`Amount due${s.dueOn ? `, expected on ${formatDay(s.dueOn)}` : ''}`}
            micros={s.amountDueMicros}
            style={styles.total}
          />
        ) : (
          <Line
            label={`Carried over to the next month (below the ${usd(s.thresholdMicros)} threshold)`}
            micros={s.carriedMicros}
            style={styles.total}
          />
        )}
      </Page>
    </Document>
  );
}

/** The statement's PDF file. */
export async function statementPdf(view: AccountLedgerView, statement: AccountStatement): Promise<Uint8Array> {
  return new Uint8Array(await renderToBuffer(<StatementDocument view={view} statement={statement} />));
}
