import { downloadRoute } from '@/lib/dashboard/cookie-route';
import { DOWNLOADS } from '@/lib/dashboard/download-access';
import { notFound } from '@/lib/shared/errors';
import { statementPdf } from '@/lib/http/statement-pdf';
import { getStatement, statementCsv } from '@/lib/payments';

/** The files a statement downloads as, by the last part of the URL: /payments/2026-10/statement.pdf. */
const FILES = {
  'statement.pdf': { type: 'application/pdf', make: statementPdf },
  'statement.csv': { type: 'text/csv', make: statementCsv },
} as const;

/**
 * A statement's PDF or CSV, with the session cookie (and `?as=` for another account of the person, or an admin
 * viewing one), for those the Payments page shows statements to (lib/dashboard/cookie-route.ts).
 */
export const { GET, HEAD } = downloadRoute<{ month: string; file: string }>({
  ...DOWNLOADS.statements,
  async handle({ principal, params: { month, file } }) {
    if (!Object.hasOwn(FILES, file))
      throw notFound(`No such file: ${file}. There are ${Object.keys(FILES).join(' and ')}.`);
    const { view, statement } = await getStatement(principal, month);
    const { type, make } = FILES[file as keyof typeof FILES];
    return { fileName: `statement-${month}.${file.split('.')[1]}`, type, body: await make(view, statement) };
  },
});
