import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 40, point 2: the kind of account a principal acts for (`role`: 'publisher' or 'admin') is compared in
 * lib/access only, behind its named checks (isOperatorAccount, ownAccountOf, requirePublisherAccount, …). A
 * comparison written anywhere else is a second copy of a rule that could drift from the first.
 */
const ROOTS = ['lib', 'app', 'components', 'scripts', 'db'];
const ACCESS = path.join('lib', 'access') + path.sep;

/**
 * A `role` or `accountRole` (never `memberRole`: a person's role in the account is the grants' business) compared
 * with an account kind, either way round, or switched on.
 */
const ROLE = String.raw`\b(?!memberRole\b)(?:\w+\.)*(?:role|accountRole)\??`;
const KIND = String.raw`['"](?:admin|publisher)['"]`;
const COMPARISONS = [
  new RegExp(String.raw`${ROLE}\s*[!=]==?\s*${KIND}`),
  new RegExp(String.raw`${KIND}\s*[!=]==?\s*${ROLE}\b`),
  new RegExp(String.raw`switch\s*\(\s*${ROLE}\s*\)`),
];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(full);
    return /\.(ts|tsx|mjs)$/.test(entry.name) ? [full] : [];
  });
}

/** Every line outside lib/access that compares an account kind, as `file:line: text`. */
function roleComparisons(roots = ROOTS): string[] {
  return roots
    .flatMap(sourceFiles)
    .filter((file) => !file.startsWith(ACCESS))
    .flatMap((file) =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (COMPARISONS.some((re) => re.test(line)) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
}

describe('the account kind is compared in lib/access only', () => {
  it('no file outside lib/access compares a principal’s role', () => {
    expect(roleComparisons()).toEqual([]);
  });

  it('finds the comparisons it is there for, and not a member role', () => {
    const found = (line: string) => COMPARISONS.some((re) => re.test(line));
    expect(found("if (principal.role !== 'admin') {")).toBe(true);
    expect(found("principal.role === 'publisher' ? principal.userId : null")).toBe(true);
    expect(found("home?.accountRole === 'publisher' ? home.accountId : null")).toBe(true);
    expect(found("if (user?.role !== 'publisher') throw notFound()")).toBe(true);
    expect(found("'admin' === principal.role")).toBe(true);
    expect(found('switch (principal.role) {')).toBe(true);
    expect(found("principal.memberRole === 'admin'")).toBe(false);
    expect(found("input.role !== 'viewer'")).toBe(false);
    expect(found("eq(users.role, 'publisher')")).toBe(false);
  });
});
