import type { BenchCase } from './cases';
import type { Machine } from './fixtures';
import { expectedStatus } from './measure';
import { type CaseResult, describeErrors, type PhaseResult } from './report';

/** The machine in one line, as the README states it above the table. */
export function machineLine(machine: Machine): string {
  const postgres = /^PostgreSQL [\d.]+/.exec(machine.postgres)?.[0] ?? machine.postgres;
  const memory = `${(machine.memoryBytes / 2 ** 30).toFixed(1)} GiB`;
  return `${machine.cpus} × ${machine.cpuModel}, ${memory}, ${machine.platform}, Node.js ${machine.node}, ${postgres}`;
}

/** Milliseconds as the README writes them: one decimal, whole from a second up (`1,182`). */
const ms = (x: number | undefined) =>
  x === undefined || !Number.isFinite(x) ? '–' : x < 1000 ? x.toFixed(1) : Math.round(x).toLocaleString('en-US');
const perSecond = (x: number | undefined) =>
  x === undefined || !Number.isFinite(x) ? '–' : Math.round(x).toLocaleString('en-US');

/** What marks a figure some of whose requests were not answered 2xx; a note under the table says which. */
const FAILED = '†';

/**
 * The README's Performance table (its columns, rows and number style, aligned as Prettier aligns it), from
 * the run's figures: one row per `row` of all the cases, their figures side by side. A case the run did not
 * measure (--only, a failed warm-up) shows as `–`; a row with none measured is left out. A figure that
 * includes answers other than the expected 2xx or 304 (a 503 at the API's deadline, say) is marked †, and noted below the table.
 * The last column is the sequential p95 on a server without the report cache, for the rows the cache answers.
 */
export function readmeTable(allCases: BenchCase[], phases: PhaseResult[], concurrency: number): string {
  const find = (phase: PhaseResult['name'], name: string): CaseResult | undefined =>
    phases.find((p) => p.name === phase)?.cases.find((c) => c.name === name);
  const measured = (c: BenchCase) => phases.some((p) => p.cases.some((r) => r.name === c.name));
  const labels = new Set(allCases.filter(measured).map((c) => c.row));
  const problemOf = (result: CaseResult) =>
    describeErrors(result, expectedStatus(!!allCases.find((c) => c.name === result.name)?.revalidate));
  const rows = [...labels].map((label) => {
    const inRow = allCases.filter((c) => c.row === label);
    const cell = (
      phase: PhaseResult['name'],
      format: (x: number | undefined) => string,
      pick: (r: CaseResult | undefined) => number | undefined,
    ) =>
      inRow
        .map((c) => {
          const result = find(phase, c.name);
          return format(pick(result)) + (result && problemOf(result) ? FAILED : '');
        })
        .join(' / ');
    return [
      label,
      cell('sequential', ms, (r) => r?.p50Ms),
      cell('sequential', ms, (r) => r?.p95Ms),
      cell('concurrent', ms, (r) => r?.p95Ms),
      cell('concurrent', perSecond, (r) => r?.reqPerSec),
      inRow.some((c) => c.cached) ? cell('uncached', ms, (r) => r?.p95Ms) : '',
    ];
  });
  const notes = phases.flatMap((phase) =>
    phase.cases.flatMap((result) => {
      const problem = problemOf(result);
      return problem ? [`${FAILED} ${result.name}, ${phase.name}: ${problem}.`] : [];
    }),
  );
  const header = [
    'request',
    'p50',
    'p95',
    `p95 at concurrency ${concurrency}`,
    `req/s at concurrency ${concurrency}`,
    'p95 without the report cache',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  const rule = `| ${widths.map((w, i) => (i === 0 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`;
  const table = [line(header), rule, ...rows.map(line)].join('\n');
  return notes.length > 0 ? `${table}\n\n${notes.join('\n')}` : table;
}
