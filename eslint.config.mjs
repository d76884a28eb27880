import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';
import prettier from 'eslint-config-prettier/flat';

/**
 * The layers, bottom up, and what each may import (docs/architecture.md draws them). A file's block lists every
 * import it must not make; ESLint keeps only the last matching block's options for a rule, so the blocks are
 * disjoint and each one is complete.
 */
const DOMAINS = ['access', 'accounts', 'audit', 'identity', 'keys', 'mail', 'reports', 'revenue-in', 'sites'];
const alt = (names) => `(${names.join('|')})`;
const forbid = (regex, message) => ({ regex, message });

/** From outside a domain, only its index.ts (and reports/browser.ts, what the browser may load) is public. */
const DEEP_INTO = (domain) =>
  forbid(
    `^@/lib/${domain}/(?!browser$)`,
    `Import the ${domain} domain through its index (@/lib/${domain}); its other files are its own.`,
  );
const TRANSPORT = [
  forbid(
    '^@/lib/(http|api|dashboard)(/|$)',
    'Below the doors: throw AppError (lib/shared/errors.ts); only the doors know HTTP.',
  ),
  forbid('^(next|react|react-dom)(/|$)', 'Below the doors nothing knows Next.js or React.'),
];
const DATA = forbid(
  '^@/db/(?!(metrics|embedded-lock|health)$)',
  'Only the domains (and the operator scripts) touch the database: call a domain service.',
);
const ONLY = (allowed, message) => forbid(`^@/(?!lib/${alt(allowed)}(/|$))`, message);

const LAYERS = [
  {
    files: ['lib/shared/**'],
    patterns: [ONLY(['shared'], 'lib/shared is the bottom layer: it imports nothing of ours.')],
  },
  { files: ['lib/platform/**'], patterns: [ONLY(['shared', 'platform'], 'lib/platform knows only lib/shared.')] },
  { files: ['lib/query/**'], patterns: [ONLY(['shared', 'query'], 'The query grammar knows only lib/shared.')] },
  {
    files: ['lib/ratelimit/**'],
    patterns: [ONLY(['shared', 'platform', 'ratelimit'], 'The limiter is infrastructure.')],
  },
  {
    files: ['db/**'],
    patterns: [
      forbid('^@/lib/(?!(shared|platform)(/|$))', 'The database layer knows only lib/shared and lib/platform.'),
    ],
  },
  ...DOMAINS.map((domain) => ({
    files: [`lib/${domain}/**`],
    patterns: [...TRANSPORT, ...DOMAINS.filter((other) => other !== domain).map(DEEP_INTO)],
  })),
  {
    // Below the domains (after their block, so this one applies): who is asking and what they may read.
    files: ['lib/access/**'],
    patterns: [
      ...TRANSPORT,
      forbid('^@/(?!(db/|lib/(shared|platform|access)(/|$)))', 'lib/access sits below the domains: it knows none.'),
    ],
  },
  {
    files: ['lib/http/**'],
    patterns: [
      forbid('^@/lib/(api|dashboard)(/|$)', 'lib/http serves both doors; it imports neither.'),
      DATA,
      ...DOMAINS.map(DEEP_INTO),
    ],
  },
  {
    files: ['lib/api/**', 'lib/dashboard/**', 'app/**', 'components/**', 'proxy.ts', 'instrumentation.ts'],
    patterns: [DATA, ...DOMAINS.map(DEEP_INTO)],
  },
  { files: ['scripts/**'], patterns: DOMAINS.map(DEEP_INTO) },
];

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  { rules: { '@typescript-eslint/no-explicit-any': 'error' } },
  ...LAYERS.map(({ files, patterns }) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns }] } })),
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
