import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';
import prettier from 'eslint-config-prettier/flat';

/** Layers that must stay transport-neutral: they serve the API, the dashboard and the CLI alike. */
const NEUTRAL = ['lib/services/**', 'lib/query/**', 'lib/import/**', 'lib/errors.ts', 'lib/money.ts', 'lib/csv.ts'];
const NO_TRANSPORT = [
  {
    group: ['@/lib/http', '@/lib/http/*'],
    message: 'Services and the grammar throw AppError (lib/errors.ts); only the API adapter knows HTTP.',
  },
  {
    group: ['next', 'next/*', 'react', 'react/*', 'react-dom', 'react-dom/*'],
    message: 'Services and the grammar know nothing of Next.js or React.',
  },
];
const DB = {
  group: ['@/db/*', '!@/db/metrics', '!@/db/embedded-lock'],
  message: 'Only services (and the operator scripts) touch the database: call a service.',
};

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  { rules: { '@typescript-eslint/no-explicit-any': 'error' } },
  { files: NEUTRAL, rules: { 'no-restricted-imports': ['error', { patterns: NO_TRANSPORT }] } },
  {
    // Pages, components, the API adapter and the HTTP layer reach data through services only.
    files: ['app/**', 'components/**', 'lib/**'],
    ignores: [...NEUTRAL, 'lib/services/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [DB] }] },
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
    '.data/**',
    'bench/**',
  ]),
]);
