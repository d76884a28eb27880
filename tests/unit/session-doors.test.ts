import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 39, point 1: one function opens sessions (lib/identity/session-open.ts), and it applies the second
 * factor. A new way in that wrote its own session row would skip it: no other file may insert into `sessions`.
 */
const ROOTS = ['lib', 'app', 'scripts', 'db'];
const SESSION_INSERT = /\.insert\(\s*sessions\s*\)|insert\s+into\s+"?sessions"?/i;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    // Not doors: migrations, and the bench's fixture, which writes the signed-in session its page loads measure.
    if (entry.isDirectory()) return ['migrations', 'bench'].includes(entry.name) ? [] : sourceFiles(full);
    return /\.(ts|tsx|mjs)$/.test(entry.name) ? [full] : [];
  });
}

describe('the one way into a session', () => {
  it('only lib/identity/session-open.ts inserts sessions', () => {
    const writers = ROOTS.flatMap(sourceFiles).filter((file) => SESSION_INSERT.test(fs.readFileSync(file, 'utf8')));
    expect(writers).toEqual([path.join('lib', 'identity', 'session-open.ts')]);
  });
});
