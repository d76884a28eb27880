import type { BenchCase } from './cases';
import type { Machine } from './fixtures';
import type { CaseResult, PhaseResult } from './report';

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

/**
 * The README's Performance table (its columns, rows and number style, aligned as Prettier aligns it), from
 * the run's figures: one row per `row` of all the cases, their figures side by side. A case the run did not
 * measure (--only, a failed warm-up) shows as `–`; a row with none measured is left out.
 */
export function readmeTable(allCases: BenchCase[], phases: PhaseResult[], concurrency: number): string {
  const find = (phase: PhaseResult['name'], name: string): CaseResult | undefined =>
    phases.find((p) => p.name === phase)?.cases.find((c) => c.name === name);
  const measured = (c: BenchCase) => phases.some((p) => p.cases.some((r) => r.name === c.name));
  const labels = new Set(allCases.filter(measured).map((c) => c.row));
  const rows = [...labels].map((label) => {
    const inRow = allCases.filter((c) => c.row === label);
    const cell = (format: (x: number | undefined) => string, pick: (c: BenchCase) => number | undefined) =>
      inRow.map((c) => format(pick(c))).join(' / ');
    return [
      label,
      cell(ms, (c) => find('sequential', c.name)?.p50Ms),
      cell(ms, (c) => find('sequential', c.name)?.p95Ms),
      cell(ms, (c) => find('concurrent', c.name)?.p95Ms),
      cell(perSecond, (c) => find('concurrent', c.name)?.reqPerSec),
    ];
  });
  const header = ['request', 'p50', 'p95', `p95 at concurrency ${concurrency}`, `req/s at concurrency ${concurrency}`];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  const rule = `| ${widths.map((w, i) => (i === 0 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}
