/**
 * Streaming reader for revenue import files: CSV with a header line, or NDJSON (one JSON object per line).
 * Yields validated rows and per-line errors in file order while holding at most one input chunk and one
 * record (≤ 64 KiB) at a time, so a file of any size can be checked before or while it is imported.
 * No database access: resolving site names and ownership and writing rows is the caller's job.
 * The columns live in ./columns.ts, the checks on their values in ./values.ts.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { isDay, todayUtc } from '@/lib/query/dates';
import { mapColumns, missingColumns, quote, type ImportRow, type Problem, type Slots } from './columns';
import { toRow, type Values } from './values';

export { IMPORT_COLUMNS, type ImportRow } from './columns';

export type ImportFormat = 'csv' | 'ndjson';

/** `field` is the canonical column name, or `line` when the line as a whole is unreadable. */
export interface LineError {
  line: number;
  field: string;
  detail: string;
}
export type ParsedLine = { row: ImportRow } | { error: LineError };

/** Longest CSV record or NDJSON line read; a longer one is an error rather than an unbounded buffer. */
const MAX_LINE_BYTES = 64 * 1024;
const TOO_LONG = `is longer than 64 KiB (${MAX_LINE_BYTES} bytes)`;

type Input = AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;

/**
 * Streams validated rows and per-line errors, in file order, with constant memory.
 * A bad `format` or `options.today` throws at once: those are the caller's bugs, not the file's.
 */
export function parseRevenueFile(input: Input, format: ImportFormat, options: { today?: string } = {}) {
  return oneByOne(parseRevenueBatches(input, format, options));
}

/**
 * The same, one batch per input chunk: what a large import reads, since each step of an async iteration costs
 * about a microsecond, as much as checking a line does. A batch's rows live until its last is staged, so chunks
 * of a file stream's default 64 KiB suit it best: from 1 MiB chunks, 15,000 rows at a time outlived V8's young
 * generation and were copied out of it (re-sending 200,000 rows took 1.25–1.39 s instead of 1.06–1.13).
 */
export function parseRevenueBatches(
  input: Input,
  format: ImportFormat,
  options: { today?: string } = {},
): AsyncGenerator<ParsedLine[]> {
  const today = options.today ?? todayUtc();
  if (!isDay(today)) throw new RangeError(`options.today must be a YYYY-MM-DD day, got ${JSON.stringify(today)}`);
  if (format === 'csv') return readCsv(input, today);
  if (format === 'ndjson') return readNdjson(input, today);
  throw new RangeError(`unknown import format ${JSON.stringify(format)}`);
}

async function* oneByOne(batches: AsyncGenerator<ParsedLine[]>): AsyncGenerator<ParsedLine> {
  for await (const batch of batches) yield* batch;
}

const NDJSON_TYPES = new Set([
  'application/x-ndjson',
  'application/ndjson',
  'application/jsonl',
  'application/x-jsonl',
]);

/** 'ndjson' for .ndjson/.jsonl names or application/x-ndjson / application/jsonl content types, 'csv' for .csv / text/csv; null when unknown. */
export function formatFromName(nameOrContentType: string): ImportFormat | null {
  const s = nameOrContentType.trim().toLowerCase();
  const mediaType = s.split(';')[0].trim(); // "text/csv; charset=utf-8"
  if (/\.(ndjson|jsonl)$/.test(s) || NDJSON_TYPES.has(mediaType)) return 'ndjson';
  if (s.endsWith('.csv') || mediaType === 'text/csv') return 'csv';
  return null;
}

const lineErrors = (line: number, problems: Problem[]): ParsedLine[] =>
  problems.map((p) => ({ error: { line, field: p.field, detail: p.detail } }));

/** Checks a line's values and adds its row, or its errors, to `out`. */
function check(out: ParsedLine[], line: number, values: Values, today: string, problems: Problem[] = []) {
  const row = toRow(line, values, today);
  if (Array.isArray(row)) problems.push(...row);
  if (problems.length > 0) out.push(...lineErrors(line, problems));
  else out.push({ row: row as ImportRow });
}

const toBytes = (chunk: Uint8Array | string): Uint8Array => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk);

// ---- CSV ----------------------------------------------------------------------------------------------

/**
 * CSV is read line by line: a line without a quote has only one reading (cells split at commas), which is
 * ~10× faster than a general parser and is what nearly every line of a revenue export looks like. A line
 * with quotes goes to csv-parse, with the lines that follow for as long as it reports a quoted cell left
 * open (a cell spanning lines).
 */
async function* readCsv(input: Input, today: string): AsyncGenerator<ParsedLine[]> {
  let slots: Slots | undefined;
  // A record whose quoted cell is still open (`as`: the closures below set it, which narrowing cannot see).
  let pending = null as { line: number; text: string; inQuote: boolean } | null;

  /** Adds what a record makes to `out`; false when the file cannot be read past it. */
  function record(out: ParsedLine[], line: number, cells: string[]): boolean {
    if (cells.every((cell) => cell.trim() === '')) return true; // blank line, or separators only
    if (!slots) {
      const header = mapColumns(cells);
      const problems = [...header.problems, ...missingColumns(header.slots)];
      if (problems.length > 0) {
        // With a column missing or unknown, every row would repeat the same error: stop at the header.
        out.push(...lineErrors(line, problems));
        return false;
      }
      slots = header.slots;
    } else if (cells.length !== slots.length) {
      out.push({ error: { line, field: 'line', detail: `has ${cells.length} cells; the header has ${slots.length}` } });
    } else {
      const values: Values = {};
      for (let i = 0; i < cells.length; i++) if (slots[i]) values[slots[i]!] = cells[i];
      check(out, line, values, today);
    }
    return true;
  }

  for await (const lines of splitLines(input)) {
    const out: ParsedLine[] = [];
    const goesOn = lines.every((item) => readLine(out, item));
    if (out.length > 0) yield out;
    if (!goesOn) return;
  }
  if (pending) {
    const detail = 'opens a quoted cell that is never closed; the rest of the file was not read';
    yield [{ error: { line: pending.line, field: 'line', detail } }];
  } else if (!slots) {
    const detail = 'the file is empty; a CSV file starts with a header line naming its columns';
    yield [{ error: { line: 1, field: 'header', detail } }];
  }

  /** Adds what a line makes to `out`; false when the file cannot be read past it. */
  function readLine(out: ParsedLine[], item: Line): boolean {
    if ('problem' in item) {
      // No reliable place to resume in CSV (the line may have opened a quote): the file ends here.
      const at = pending?.line ?? item.line;
      out.push({ error: { line: at, field: 'line', detail: `${item.problem}; the rest of the file was not read` } });
      return false;
    }
    if (!pending && !item.text.includes('"')) {
      // The common line: no quotes, so its cells are split at commas and nothing is carried over.
      const text = item.text.endsWith('\r') ? item.text.slice(0, -1) : item.text;
      return record(out, item.line, text.split(','));
    }
    pending = pending
      ? { line: pending.line, text: `${pending.text}\n${item.text}`, inQuote: inQuoteAfter(item.text, true) }
      : { line: item.line, text: item.text, inQuote: inQuoteAfter(item.text, false) };
    const text = pending.text.endsWith('\r') ? pending.text.slice(0, -1) : pending.text;
    // Parsing the record again for every line of an open quoted cell would cost quadratic time.
    const cells = pending.inQuote ? 'open' : text.includes('"') ? quotedCells(text) : text.split(',');
    if (cells === 'open') {
      if (pending.text.length <= MAX_LINE_BYTES) return true;
      out.push({
        error: { line: pending.line, field: 'line', detail: `${TOO_LONG}; the rest of the file was not read` },
      });
      return false;
    }
    const { line } = pending;
    pending = null;
    if (typeof cells !== 'string') return record(out, line, cells);
    out.push({ error: { line, field: 'line', detail: cells } });
    return true;
  }
}

/**
 * Whether a quoted cell is still open at the end of `line`, given whether one was open at its start: the
 * quoting rule of csv-parse with relax_quotes (a quote opens a cell only as its first character; inside,
 * "" is a quote). Carried line by line, so a long multi-line record is scanned once; csv-parse still
 * reads the whole record once it closes.
 */
function inQuoteAfter(line: string, inQuote: boolean): boolean {
  if (!inQuote && !line.includes('"')) return false;
  let cellStart = !inQuote;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (inQuote) {
      if (c !== '"') continue;
      if (line[i + 1] === '"') i++;
      else inQuote = false;
    } else if (c === '"' && cellStart) [inQuote, cellStart] = [true, false];
    else cellStart = c === ',';
  }
  return inQuote;
}

/** One record's cells by csv-parse; 'open' while a quoted cell goes on past the text, or why it is not CSV. */
function quotedCells(text: string): string[] | 'open' | string {
  try {
    // relax_quotes: a quote inside an unquoted cell (5"5) is text, as spreadsheets write it.
    return (parseCsv(text, { relax_quotes: true, relax_column_count: true }) as string[][])[0] ?? [];
  } catch (error) {
    if ((error as { code?: string }).code === 'CSV_QUOTE_NOT_CLOSED') return 'open';
    return `is not valid CSV (${(error as Error).message})`;
  }
}

// ---- NDJSON -------------------------------------------------------------------------------------------

async function* readNdjson(input: Input, today: string): AsyncGenerator<ParsedLine[]> {
  for await (const lines of splitLines(input)) {
    const out: ParsedLine[] = [];
    for (const item of lines) {
      if ('problem' in item) {
        const detail = item.problem === TOO_LONG ? `${TOO_LONG}; it was skipped` : item.problem;
        out.push({ error: { line: item.line, field: 'line', detail } });
      } else if (item.text.trim() !== '') jsonRow(out, item.line, item.text, today);
    }
    if (out.length > 0) yield out;
  }
}

function jsonRow(out: ParsedLine[], line: number, text: string, today: string) {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    out.push({ error: { line, field: 'line', detail: `is not valid JSON: ${quote(text)}` } });
    return;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    out.push({ error: { line, field: 'line', detail: `must be a JSON object, got ${quote(text)}` } });
    return;
  }
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  const { slots, problems } = mapColumns(keys);
  const values: Values = {};
  slots.forEach((column, i) => {
    if (column) values[column] = object[keys[i]];
  });
  check(out, line, values, today, problems);
}

// ---- lines --------------------------------------------------------------------------------------------

type Line = { line: number; text: string } | { line: number; problem: string };

/**
 * The input's physical lines, numbered from 1, each at most MAX_LINE_BYTES (a longer one is a problem): those
 * that each chunk ends, as one batch.
 */
async function* splitLines(input: Input): AsyncGenerator<Line[]> {
  const lines = new LineSplitter();
  for await (const chunk of input) yield lines.push(toBytes(chunk));
  yield lines.end();
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Splits bytes at \n, keeping at most MAX_LINE_BYTES of a line. A longer line is reported as soon as it
 * passes the limit (not at its end, which may never come) and the rest of it is skipped.
 */
class LineSplitter {
  private parts: Uint8Array[] = [];
  private size = 0; // keeps counting past the limit, to know that the line was too long
  private line = 1;

  push(bytes: Uint8Array): Line[] {
    const lines: Line[] = [];
    let start = 0;
    for (let nl = bytes.indexOf(10); nl !== -1; nl = bytes.indexOf(10, start)) {
      const tooLong = this.add(bytes.subarray(start, nl));
      if (tooLong) lines.push(tooLong);
      start = nl + 1;
      const item = this.finish();
      if (item) lines.push(item);
    }
    const tooLong = this.add(bytes.subarray(start));
    if (tooLong) lines.push(tooLong);
    return lines;
  }

  end(): Line[] {
    const item = this.size > 0 ? this.finish() : null;
    return item ? [item] : [];
  }

  /** Adds a piece of the current line; returns the problem when this piece takes it past the limit. */
  private add(part: Uint8Array): Line | null {
    const before = this.size;
    this.size += part.length;
    if (this.size <= MAX_LINE_BYTES) {
      if (part.length > 0) this.parts.push(part);
      return null;
    }
    this.parts = [];
    return before <= MAX_LINE_BYTES ? { line: this.line, problem: TOO_LONG } : null;
  }

  private finish(): Line | null {
    const { parts, size } = this;
    const line = this.line++;
    [this.parts, this.size] = [[], 0];
    if (size > MAX_LINE_BYTES) return null; // reported when it passed the limit
    let text: string;
    try {
      text = utf8.decode(parts.length === 1 ? parts[0] : Buffer.concat(parts));
    } catch {
      return { line, problem: 'is not valid UTF-8 text' };
    }
    if (line === 1 && text.startsWith('\uFEFF')) text = text.slice(1);
    return { line, text }; // blank lines are the readers' to skip: a quoted CSV cell may hold one
  }
}
