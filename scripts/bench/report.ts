import type { BiToolFigure } from './bi-tool';
import type { ImportFigure } from './imports';
import fs from 'node:fs';
import path from 'node:path';
import type { BenchCase } from './cases';
import type { Machine } from './fixtures';
import { expectedStatus, type Stats } from './measure';

export interface CaseResult extends Stats {
  name: string;
  path: string;
  floor?: BenchCase['floor'];
  /** req/s as a fraction of the framework floor's in the same phase (1 = as fast as the floor). */
  reqPerSecVsFloor: number;
  /** p95 as a multiple of the framework floor's p95 in the same phase. */
  p95VsFloor: number;
}

export interface PhaseResult {
  /** uncached: sequential again, on a server without the report cache, for the cases it answers. */
  name: 'sequential' | 'concurrent' | 'uncached';
  connections: number;
  /** Sequential: requests per case (fewer if the time cap came first); concurrent: none. */
  requests?: number;
  seconds: number;
  cases: CaseResult[];
}

export interface Results {
  date: string;
  ok: boolean;
  machine: Machine;
  database: string;
  dataset: { email: string; sites: number; revenueRows: number };
  settings: Record<string, unknown>;
  phases: PhaseResult[];
  /** The month-end close's timings (scripts/bench/month-end-close.ts). */
  closes: { name: string; accounts: number; statements: number; seconds: number }[];
  imports: ImportFigure[];
  /** A BI tool's day (scripts/bench/bi-tool.ts), with the answers it checked; null when --only left it out. */
  biTool: BiToolFigure | null;
  /** One line per failed case and phase; empty when ok. */
  errors: string[];
}

export function withRatios(bench: BenchCase, stats: Stats, floor: Stats | undefined): CaseResult {
  return {
    name: bench.name,
    path: bench.path,
    ...(bench.floor ? { floor: bench.floor } : {}),
    ...stats,
    reqPerSecVsFloor: floor ? stats.reqPerSec / floor.reqPerSec : NaN,
    p95VsFloor: floor ? stats.p95Ms / floor.p95Ms : NaN,
  };
}

const COLUMNS: [string, number][] = [
  ['case', 36], ['n', 7], ['p50 ms', 9], ['p95 ms', 9], ['p99 ms', 9], ['req/s', 9], ['req/s vs floor', 16], ['p95 × floor', 13],
];

const fixed = (x: number, digits: number) => (Number.isFinite(x) ? x.toFixed(digits) : '–');

export function printPhaseHeader(title: string) {
  console.log(`\n${title}`);
  const line = COLUMNS.map(([label, width], i) => (i === 0 ? label.padEnd(width) : label.padStart(width))).join('');
  console.log(line);
  console.log('─'.repeat(line.length));
}

export function printRow(result: CaseResult) {
  const cells = [
    result.name,
    String(result.requests),
    fixed(result.p50Ms, 1),
    fixed(result.p95Ms, 1),
    fixed(result.p99Ms, 1),
    fixed(result.reqPerSec, 0),
    `${fixed(result.reqPerSecVsFloor * 100, 1)} %`,
    fixed(result.p95VsFloor, 1),
  ];
  console.log(cells.map((cell, i) => (i === 0 ? cell.padEnd(COLUMNS[i][1]) : cell.padStart(COLUMNS[i][1]))).join(''));
}

/** A case with any answer outside 2xx or any request without an answer, described for the error banner. */
export function describeErrors(result: Stats, isExpected = expectedStatus(false)): string | null {
  if (result.unexpected === 0 && result.failures === 0) return null;
  const codes = Object.entries(result.statusCodes)
    .filter(([status]) => !isExpected(status))
    .map(([status, n]) => `${n} × ${status}`);
  if (result.failures > 0) codes.push(`${result.failures} without an answer (connection error or timeout)`);
  const hint = result.statusCodes['429']
    ? ' (429: a rate limit or report slot reached; every connection must have its own API key)'
    : '';
  return codes.join(', ') + hint;
}

export function writeResults(file: string, results: Results) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // NaN (an empty case) is not JSON: null says "no figure". Microseconds are precision enough.
  const round = (_key: string, value: unknown) =>
    typeof value !== 'number' ? value : Number.isFinite(value) ? Math.round(value * 1000) / 1000 : null;
  const json = JSON.stringify(results, round, 2);
  fs.writeFileSync(file, `${json}\n`);
}
