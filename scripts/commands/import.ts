import fs from 'node:fs';
import { runDueJobs } from '@/lib/jobs';
import { formatFromName, IMPORT_COLUMNS, importRevenue, type ImportFormat, type LineError } from '@/lib/revenue-in';
import { COMMAND_LINE } from '@/lib/access';
import { type Command, CommandError, UsageError, parseCommandArgs } from '../cli-kit';
import { configuredDatabaseTarget, withDatabase } from '../open-database';
import { Progress } from '../progress';

const columns = IMPORT_COLUMNS.map((c) => {
  const names = [c.name, ...c.aliases].join(' | ');
  return `  ${names.padEnd(30)} ${c.required === 'optional' ? '(optional) ' : ''}${c.meaning}`;
}).join('\n');

export const importCommand: Command = {
  summary: 'Import daily revenue rows from a CSV or NDJSON file (upsert by site, day and country)',
  help: `Usage: npm run import -- <file | -> [--format csv|ndjson] [--owner <email>] [--create-sites]

Reads revenue rows (CSV with a header line, or NDJSON: one JSON object per line; "-" reads standard
input) and upserts them by (site, day, country) in one transaction: new rows are inserted, rows whose
numbers differ are updated, identical rows are left alone, so importing the same file twice changes
nothing. If any line is bad, nothing is changed and every bad line is printed with its line number,
column and reason. Acts on DATABASE_URL, or on the embedded database in PGLITE_DIR (stop a running
server first: it holds the embedded database). See docs/samples/ for example files.

Columns (any letter case; the API's export columns cpm, fillRate, updatedAt, userId are ignored):
${columns}

Options:
  --format csv|ndjson  the file's format (default: from the file name, else from its first character)
  --owner <email>      the account whose sites the file may name by siteName; site ids must belong to it
  --create-sites       create the sites the file names that do not exist yet, for --owner
  -h, --help           show this help`,

  async run(args) {
    const { values, positionals } = parseCommandArgs(
      args,
      { format: { type: 'string' }, owner: { type: 'string' }, 'create-sites': { type: 'boolean' } },
      true,
    );
    if (positionals.length !== 1) throw new UsageError('give exactly one file to import, or - for standard input');
    const [file] = positionals;
    if (values.format !== undefined && values.format !== 'csv' && values.format !== 'ndjson') {
      throw new UsageError(`--format must be csv or ndjson, not "${values.format}"`);
    }
    if (values['create-sites'] && !values.owner) throw new UsageError('--create-sites needs --owner <email>');
    if (file !== '-' && !fs.existsSync(file)) throw new CommandError(`no such file: ${file}`);

    const source = file === '-' ? process.stdin : fs.createReadStream(file);
    const { format, input } = await withFormat(source, (values.format as ImportFormat) ?? formatFromName(file));
    const progress = new Progress();
    const result = await withDatabase(async () => {
      const imported = await importRevenue(COMMAND_LINE, input, {
        format,
        owner: values.owner,
        createSites: values['create-sites'],
        onError: printError,
        onProgress: ({ rows, phase }) =>
          progress.show(
            rows,
            (rate) =>
              `${rows.toLocaleString('en-US')} rows read${phase === 'reading' ? ` (${rate} rows/s)…` : '; applying them…'}`,
            phase === 'applying',
          ),
      });
      // The alerts of the days it changed (queued by the import), before the database closes.
      if (imported.ok) await runDueJobs();
      return imported;
    });
    progress.clear();
    const count = (n: number) => n.toLocaleString('en-US');
    if (!result.ok) {
      throw new CommandError(
        `nothing was imported: ${count(result.errorCount)} bad ${result.errorCount === 1 ? 'line' : 'lines'} ` +
          `(listed above). ${configuredDatabaseTarget().description} is unchanged.`,
      );
    }
    const s = result.summary;
    console.log(
      `Imported ${file === '-' ? 'standard input' : file} into ${configuredDatabaseTarget().description}: ` +
        `${count(s.rows)} rows: ${count(s.inserted)} inserted, ${count(s.updated)} updated, ${count(s.unchanged)} unchanged` +
        `${s.sitesCreated > 0 ? `, ${count(s.sitesCreated)} sites created` : ''}; ` +
        `${(s.ms / 1000).toFixed(1)} s, ${count(s.rowsPerSecond)} rows/s.`,
    );
  },
};

function printError(error: LineError) {
  console.error(
    error.line > 0 ? `line ${error.line}, ${error.field}: ${error.detail}` : `${error.field}: ${error.detail}`,
  );
}

/** The format given or named by the file; else guessed from the first character (NDJSON starts with "{"). */
async function withFormat(source: AsyncIterable<Buffer>, known: ImportFormat | null) {
  if (known) return { format: known, input: source };
  const iterator = source[Symbol.asyncIterator]();
  const first = await iterator.next();
  const head = first.done
    ? ''
    : first.value
        .toString('utf8', 0, 64)
        .replace(/^\uFEFF/, '')
        .trimStart();
  async function* input() {
    if (!first.done) yield first.value;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { format: (head.startsWith('{') ? 'ndjson' : 'csv') as ImportFormat, input: input() };
}
