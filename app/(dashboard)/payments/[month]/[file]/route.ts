import { currentUser } from '@/lib/dashboard/session';
import { viewerOf } from '@/lib/dashboard/viewer';
import { AppError } from '@/lib/shared/errors';
import { STATUS_OF } from '@/lib/http/problem';
import { getStatement, statementCsv, statementPdf } from '@/lib/payments';

const text = (body: string, status: number) =>
  new Response(`${body}\n`, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });

/** The files a statement downloads as, by the last part of the URL: /payments/2026-10/statement.pdf. */
const FILES = {
  'statement.pdf': { type: 'application/pdf', make: statementPdf },
  'statement.csv': { type: 'text/csv; charset=utf-8', make: statementCsv },
} as const;

/**
 * A statement's PDF or CSV, with the session cookie (and `?as=` for another account of the person, or an admin
 * viewing one). Problems are plain text: the browser shows them in place of a file.
 */
export async function GET(request: Request, { params }: { params: Promise<{ month: string; file: string }> }) {
  const { month, file } = await params;
  if (!Object.hasOwn(FILES, file))
    return text(`No such file: ${file}. There are ${Object.keys(FILES).join(' and ')}.`, 404);
  const user = await currentUser();
  if (!user) return text('Sign in to download statements.', 401);
  const viewer = await viewerOf(user, new URL(request.url).searchParams);
  if (viewer.kind === 'choose') return text('Choose a publisher (?as=) to download their statements.', 400);
  if (viewer.kind === 'refused') return text(viewer.error.detail, STATUS_OF[viewer.error.code].status);
  try {
    const { view, statement } = await getStatement(viewer.principal, month);
    const { type, make } = FILES[file as keyof typeof FILES];
    const body = await make(view, statement);
    return new Response(body as BodyInit, {
      headers: {
        'Content-Type': type,
        'Content-Disposition': `attachment; filename="statement-${month}.${file.split('.')[1]}"`,
        'Cache-Control': 'no-store',
      },
    });
  } catch (err) {
    if (err instanceof AppError && err.code !== 'unavailable') return text(err.detail, STATUS_OF[err.code].status);
    throw err;
  }
}
