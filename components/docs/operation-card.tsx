import type { Field, Operation } from '@/lib/api/reference';
import { Card } from '@/components/ui/card';

const METHOD_COLOURS: Record<string, string> = {
  GET: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100',
  POST: 'bg-sky-100 text-sky-900 dark:bg-sky-900 dark:text-sky-100',
  DELETE: 'bg-rose-100 text-rose-900 dark:bg-rose-900 dark:text-rose-100',
};

export const Code = ({ children, label }: { children: string; label?: string }) => (
  <pre
    tabIndex={0}
    aria-label={label}
    className="overflow-x-auto rounded-md bg-zinc-950 p-4 font-mono text-xs text-zinc-100"
  >
    {children}
  </pre>
);

function FieldTable({ caption, fields, of }: { caption: string; fields: Field[]; of: Operation }) {
  if (fields.length === 0) return null;
  return (
    // Focusable, so that a keyboard can scroll a wide table on a narrow screen.
    <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={`${caption} of ${of.method} ${of.path}`}>
      <table className="w-full text-left text-sm">
        <caption className="mb-1 text-left text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400">
          {caption}
        </caption>
        <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
          {fields.map((f) => (
            <tr key={f.name}>
              <th scope="row" className="py-1.5 pr-3 align-top font-mono text-xs font-medium whitespace-nowrap">
                {f.name}
              </th>
              <td className="py-1.5 pr-3 align-top font-mono text-xs text-zinc-600 dark:text-zinc-400">{f.type}</td>
              <td className="py-1.5 align-top text-zinc-700 dark:text-zinc-300">{f.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One operation of the reference: what it does, what it takes, what it answers, and how to call it. */
export function OperationCard({ op }: { op: Operation }) {
  return (
    <Card className="space-y-4 p-6" id={op.id}>
      <div className="flex flex-wrap items-center gap-2">
        <span className={`rounded px-2 py-0.5 font-mono text-xs font-semibold ${METHOD_COLOURS[op.method] ?? ''}`}>
          {op.method}
        </span>
        <h3 className="font-mono text-sm font-semibold break-all">{op.path}</h3>
        {op.deprecated && (
          <span className="rounded bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900 dark:text-amber-100">
            Deprecated
          </span>
        )}
        {!op.needsKey && (
          <span className="rounded bg-zinc-100 px-2 py-0.5 text-xs text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
            No key needed
          </span>
        )}
      </div>
      <p className="text-sm">{op.summary}</p>
      {op.description && <p className="text-sm text-zinc-700 dark:text-zinc-300">{op.description}</p>}
      <FieldTable caption="Parameters" fields={op.parameters} of={op} />
      {op.bodyTypes.length > 0 && (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          Body: <span className="font-mono text-xs">{op.bodyTypes.join(', ')}</span>
        </p>
      )}
      <FieldTable caption="Body fields" fields={op.body} of={op} />
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        <span className="font-mono text-xs font-semibold">{op.response.status}</span> {op.response.description}
        {op.response.types.length > 0 && (
          <>
            {' '}
            · <span className="font-mono text-xs">{op.response.types.join(', ')}</span>
          </>
        )}
      </p>
      <FieldTable caption="Response fields" fields={op.response.fields} of={op} />
      <details className="text-sm">
        <summary className="cursor-pointer font-medium">Errors ({op.errors.map((e) => e.status).join(', ')})</summary>
        <ul className="mt-2 space-y-1 text-zinc-700 dark:text-zinc-300">
          {op.errors.map((e) => (
            <li key={e.status}>
              <span className="font-mono text-xs font-semibold">{e.status}</span> {e.description}
            </li>
          ))}
        </ul>
      </details>
      <Code label={`curl for ${op.method} ${op.path}`}>{op.curl}</Code>
    </Card>
  );
}
