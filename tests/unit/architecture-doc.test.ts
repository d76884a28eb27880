/**
 * Issue 40, point 1: docs/architecture.md keeps up with the folders and the lint rules. It fails when a folder of
 * lib/ has no row in the folder table or no box in the layer diagram, when the diagram's domains are not exactly
 * the domains lint finds, when an entry file of lib/ (ENTRIES in eslint.config.mjs: index.ts, browser.ts) is not
 * named, when a layer of the lint table (LAYERS) that has a folder is missing, and when a path the document names
 * does not exist.
 *
 * Which backticked text is a path, checked against the repository (relative to its root):
 * - text without spaces that starts with lib/, app/, db/, components/, scripts/, tests/, e2e/ or docs/, or that
 *   contains a `/` and ends in a file extension (`.ts`, `.sql`, …);
 * - a file name alone (`proxy.ts`, `index.ts`, `members.test.ts`) names a file at the root, one that some folder of
 *   lib/ has, or a test (tests/unit, tests/integration, e2e);
 * - `@/…` is an import specifier: it names `…`, `….ts`, `….tsx` or `…/index.ts`;
 * - not paths: URLs (`https://…`), what starts with `/` (a URL's path: `/api/v1/…`, `/export/rows`), and patterns, which hold
 *   `…`, `...`, `*`, `<` or `{` (`statement-<YYYY-MM>.pdf`, `app/(dashboard)/...`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOMAINS, ENTRIES, LAYERS } from '../../eslint.config.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DOC_PATH = 'docs/architecture.md';
const doc = fs.readFileSync(path.join(ROOT, DOC_PATH), 'utf8');

const PATH_START = /^(lib|app|db|components|scripts|tests|e2e|docs)(\/|$)/;
const FILE = /\.[a-z]{1,5}$/;
const PATTERN = /…|\.\.\.|\*|<|\{/;
const TEST_FOLDERS = ['tests/unit', 'tests/integration', 'e2e'];

const exists = (p: string) => fs.existsSync(path.join(ROOT, p));
const libFolders = fs
  .readdirSync(path.join(ROOT, 'lib'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

/** The backticked spans of a text (not the fenced blocks). */
const spansOf = (text: string) => [...text.replace(/```[\s\S]*?```/g, '').matchAll(/`([^`\n]+)`/g)].map((m) => m[1]);

/** The repository paths a span may name, or null when it names none (see the rule above). */
function pathsOf(span: string): string[] | null {
  if (/\s/.test(span) || /^(\/|[a-z]+:\/\/)/.test(span) || PATTERN.test(span)) return null;
  if (span.startsWith('@/')) {
    const bare = span.slice(2);
    return [bare, `${bare}.ts`, `${bare}.tsx`, `${bare}/index.ts`];
  }
  if (PATH_START.test(span) || (span.includes('/') && FILE.test(span))) return [span];
  if (/^[\w.-]+\.(ts|tsx|mjs|json|md)$/.test(span)) {
    return [span, ...[...libFolders.map((f) => `lib/${f}`), ...TEST_FOLDERS].map((folder) => `${folder}/${span}`)];
  }
  return null;
}

/** The folders the table's first column names: | `lib/shared` | … | */
const tableFolders = [...doc.matchAll(/^\| `([^`]+)`/gm)].flatMap((m) => [m[1]]);
const diagram = doc.match(/```mermaid\n([\s\S]*?)```/)?.[1] ?? '';
const domainsBox = diagram.match(/subgraph domains[^\n]*\n([\s\S]*?)\n\s*end\n/)?.[1] ?? '';

describe('docs/architecture.md', () => {
  it('has a row in the folder table and a box in the diagram for every folder of lib/', () => {
    expect(libFolders.filter((f) => !tableFolders.includes(`lib/${f}`))).toEqual([]);
    expect(libFolders.filter((f) => !diagram.includes(`lib/${f}`))).toEqual([]);
    expect(tableFolders.filter((f) => f.startsWith('lib/') && !libFolders.includes(f.slice(4)))).toEqual([]);
  });

  it('draws as domains exactly the domains the lint rules find', () => {
    const drawn = [...domainsBox.matchAll(/"lib\/([\w-]+)"/g)].map((m) => m[1]).sort();
    expect(drawn).toEqual([...DOMAINS].sort());
  });

  it('names every layer of the lint table that has a folder', () => {
    const layers = Object.keys(LAYERS).filter((layer) => libFolders.includes(layer));
    expect(layers.length).toBeGreaterThan(0);
    expect(
      layers.filter((layer) => !tableFolders.includes(`lib/${layer}`) || !diagram.includes(`lib/${layer}`)),
    ).toEqual([]);
  });

  it('names every entry file of lib/', () => {
    const entries = libFolders.flatMap((f) => ENTRIES.map((e) => `lib/${f}/${e}.ts`)).filter(exists);
    expect(entries.length).toBeGreaterThan(DOMAINS.length - 1);
    expect(entries.filter((e) => !spansOf(doc).includes(e))).toEqual([]);
  });

  it('names only paths that exist', () => {
    const missing = spansOf(doc).filter((span) => {
      const candidates = pathsOf(span);
      return candidates !== null && !candidates.some(exists);
    });
    expect(missing).toEqual([]);
  });

  it('tells paths from routes and patterns by the rule above', () => {
    expect(pathsOf('lib/payments/ledger.ts')).toEqual(['lib/payments/ledger.ts']);
    expect(pathsOf('lib/reports')).toEqual(['lib/reports']);
    expect(pathsOf('db/')).toEqual(['db/']);
    expect(pathsOf('proxy.ts')).toContain('proxy.ts');
    expect(pathsOf('index.ts')).toContain('lib/reports/index.ts');
    expect(pathsOf('app/(dashboard)/(reports)/export/[report]/route.ts')).not.toBeNull();
    expect(pathsOf('@/lib/reports')).toContain('lib/reports/index.ts');
    expect(pathsOf('/api/v1/reports/totals')).toBeNull();
    expect(pathsOf('/export/rows?from=2026-03-01')).toBeNull();
    expect(pathsOf('app/(dashboard)/...')).toBeNull();
    expect(pathsOf('statement-<YYYY-MM>.pdf')).toBeNull();
    expect(pathsOf('getTotals')).toBeNull();
    expect(pathsOf('https://app.example.com')).toBeNull();
    expect(pathsOf('members.test.ts')).toContain('tests/integration/members.test.ts');
    expect(pathsOf('field op value')).toBeNull();
  });
});

describe("the other documents' paths", () => {
  it.each(['README.md', 'SECURITY.md', 'docs/scaling.md'])('%s names only paths that exist', (file) => {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    const named = spansOf(text).filter((span) => pathsOf(span) !== null);
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((span) => !pathsOf(span)!.some(exists))).toEqual([]);
  });
});
