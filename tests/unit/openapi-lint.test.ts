/**
 * The OpenAPI document as API tools read it: `npm run contract:lint` (scripts/openapi-file.ts, then Redocly's
 * recommended rules and Spectral's spectral:oas, failing on any warning) passes, so that generators, mock
 * servers and validating proxies get no error and nothing that misleads them.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

describe('npm run contract:lint', () => {
  it('finds no error in the document with Redocly and no warning with Spectral', async () => {
    const run = promisify(execFile)('npm', ['run', '--silent', 'contract:lint'], { cwd: process.cwd() });
    const output = await run.catch((e: { stdout: string; stderr: string }) =>
      Promise.reject(new Error(`${e.stdout}\n${e.stderr}`)),
    );
    expect(output.stderr + output.stdout).toMatch(/valid/);
    expect(output.stdout).toMatch(/No results with a severity of 'warn' or higher/);
  }, 120_000);
});
