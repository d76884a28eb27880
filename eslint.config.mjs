import { existsSync, readdirSync } from 'node:fs';
import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';
import prettier from 'eslint-config-prettier/flat';

/**
 * The layers, bottom up, and what each may import (docs/architecture.md draws them). A file's block lists every
 * import it must not make; ESLint keeps only the last matching block's options for a rule, so the blocks are
 * disjoint and each one is complete.
 */
const alt = (names) => `(${names.join('|')})`;
const forbid = (regex, message) => ({ regex, message });

/** A domain's entry files, the only ones imported from outside it: index.ts, and browser.ts for client components. */
export const ENTRIES = ['index', 'browser'];

const DOORS_AND_REACT = [
  forbid(
    '^@/lib/(http|api|dashboard)(/|$)',
    'Below the doors: throw AppError (lib/shared/errors.ts); only the doors know HTTP.',
  ),
  forbid('^(next|react|react-dom|@react-pdf)(/|$)', 'Below the doors nothing knows Next.js or React.'),
];
const DATA = forbid(
  '^@/db/(?!(metrics|embedded-lock|health)$)',
  'Only the domains (and the operator scripts) touch the database: call a domain service.',
);
const ONLY = (allowed, message) => [forbid(`^@/(?!lib/${alt(allowed)}(/|$))`, message), DOORS_AND_REACT[1]];

/** Deep imports into these domains: anything but their entry files. */
const DEEP_INTO = (domains) =>
  domains.length === 0
    ? []
    : [
        forbid(
          `^@/lib/${alt(domains)}/(?!${alt(ENTRIES)}$)`,
          `Import a domain through its entry files (${ENTRIES.map((e) => `${e}.ts`).join(', ')}): @/lib/<domain>; its other files are its own.`,
        ),
      ];

/**
 * Every folder of lib/ that is not a domain, bottom up, with the imports its files must not make (given the
 * domains). Every other folder of lib/ is a domain: it has an index.ts, and it gets the domains' rules.
 */
export const LAYERS = {
  shared: () => ONLY(['shared'], 'lib/shared is the bottom layer: it imports nothing of ours.'),
  platform: () => ONLY(['shared', 'platform'], 'lib/platform knows only lib/shared.'),
  query: () => ONLY(['shared', 'query'], 'The query grammar knows only lib/shared.'),
  ratelimit: () => ONLY(['shared', 'platform', 'ratelimit'], 'The limiter is infrastructure.'),
  access: (domains) => [
    ...DOORS_AND_REACT,
    forbid(`^@/lib/${alt(domains)}(/|$)`, 'lib/access is below the domains: it imports none of them.'),
  ],
  http: (domains) => [
    forbid('^@/lib/(api|dashboard)(/|$)', 'lib/http serves both doors; it imports neither.'),
    DATA,
    ...DEEP_INTO(domains),
  ],
  api: (domains) => [DATA, ...DEEP_INTO(domains)],
  dashboard: (domains) => [DATA, ...DEEP_INTO(domains)],
};

/** The domains: every folder of lib/ that the table above does not name. Each one has an index.ts. */
export const DOMAINS = readdirSync(new URL('./lib/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !Object.hasOwn(LAYERS, entry.name))
  .map(({ name }) => name)
  .sort();
for (const domain of DOMAINS) {
  if (!existsSync(new URL(`./lib/${domain}/index.ts`, import.meta.url))) {
    throw new Error(`lib/${domain} is no declared layer (LAYERS in eslint.config.mjs) and has no index.ts.`);
  }
}

const BLOCKS = [
  ...Object.entries(LAYERS).map(([layer, patterns]) => ({ files: [`lib/${layer}/**`], patterns: patterns(DOMAINS) })),
  {
    files: ['db/**'],
    patterns: [
      forbid('^@/lib/(?!(shared|platform)(/|$))', 'The database layer knows only lib/shared and lib/platform.'),
    ],
  },
  ...DOMAINS.map((domain) => ({
    files: [`lib/${domain}/**`],
    patterns: [...DOORS_AND_REACT, ...DEEP_INTO(DOMAINS.filter((other) => other !== domain))],
  })),
  {
    files: ['app/**', 'components/**', 'proxy.ts', 'instrumentation.ts'],
    patterns: [DATA, ...DEEP_INTO(DOMAINS)],
  },
  { files: ['scripts/**'], patterns: DEEP_INTO(DOMAINS) },
];

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  { rules: { '@typescript-eslint/no-explicit-any': 'error' } },
  ...BLOCKS.map(({ files, patterns }) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns }] } })),
  {
    // A domain has no JSX: what renders a page or a file (a PDF) is the doors'.
    files: DOMAINS.map((domain) => `lib/${domain}/**/*.{tsx,jsx}`),
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Program',
          message: 'A domain renders nothing: JSX belongs to the doors (app/, components/, lib/http).',
        },
      ],
    },
  },
  {
    files: ['**/*.{ts,tsx,mjs}'],
    ignores: ['tests/**', 'e2e/**'],
    // Packages are not parsed: a loop runs through our own files only.
    settings: { 'import/ignore': ['node_modules'] },
    rules: { 'import/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // Test helpers are not React hooks, whatever their names (useTestDatabase).
    files: ['tests/**', 'e2e/**', 'scripts/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'react-hooks/rules-of-hooks': 'off' },
  },
  // Layout is Prettier's (npm run format); this turns off the style rules that would disagree with it.
  prettier,
  globalIgnores([
    '.next/**',
    'out/**',
    'build/**',
    'next-env.d.ts',
    'test-results/**',
    'playwright-report/**',
    'tests/typed-client/generated/**',
    'tests/contract/generated/**',
    '.data/**',
    'bench/**',
  ]),
  {
    // Server actions live in lib/dashboard/actions: a component never imports from app/ (the pages import it).
    // The typescript-eslint twin of no-restricted-imports, so that the layer blocks above keep their own options.
    files: ['components/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(@/|(\\.\\./)+)app(/|$)',
              message: 'Components do not import from app/: server actions are in lib/dashboard/actions.',
            },
          ],
        },
      ],
    },
  },
]);
