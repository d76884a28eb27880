import { vi } from 'vitest';
import { readEnv, setEnv } from '@/lib/platform/env';
import { runCli } from '@/scripts/run-cli';

/**
 * Runs an operator command in process, in the environment an operator would set, and returns its exit code and
 * what it printed.
 */
export async function cli(args: string[], environment: Record<string, string | undefined>) {
  setEnv(readEnv({ ...process.env, DATABASE_URL: '', ...environment }));
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...parts) => void out.push(parts.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...parts) => void err.push(parts.join(' ')));
  try {
    const code = await runCli(args);
    return { code, stdout: out.join('\n'), stderr: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}
