import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EmulatorMode } from '../../tests/support/upstash-emulator';
import { childEnv, ROOT } from './servers';

/**
 * The Upstash REST emulator (tests/support/upstash-emulator.ts) in a process of its own, steered over an
 * IPC channel. Upstash is a separate service in production; run inside the test process, the emulator would
 * share its event loop with the client firing hundreds of requests, and its answers would be late for reasons
 * that are the harness's, not the servers'.
 */

type Op = { op: 'mode'; mode: EmulatorMode; delayMs?: number } | { op: 'requests' } | { op: 'reset' } | { op: 'close' };
type Request = Op & { id: number };
type Reply = { id: number; requests?: number; error?: string };
type Ready = { ready: true; url: string; token: string } | { ready: false; error: string };

export interface EmulatorProcess {
  url: string;
  token: string;
  setMode(mode: EmulatorMode, delayMs?: number): Promise<void>;
  /** HTTP requests the emulator has received since the last reset. */
  requests(): Promise<number>;
  resetCounts(): Promise<void>;
  close(): Promise<void>;
}

export async function startEmulatorProcess(keyPrefix: string): Promise<EmulatorProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', import.meta.filename], {
    cwd: ROOT,
    env: childEnv({ EMULATOR_KEY_PREFIX: keyPrefix }),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<Ready>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the emulator process did not start within 20 s')), 20_000);
    child.once('message', (m) => {
      clearTimeout(timer);
      resolve(m as Ready);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the emulator process exited (${code}) before it was ready`));
    });
  });
  if (!ready.ready) {
    child.kill('SIGTERM');
    throw new Error(`the emulator could not start: ${ready.error}`);
  }

  let nextId = 1;
  const pending = new Map<number, (reply: Reply) => void>();
  child.on('message', (m) => {
    const reply = m as Reply;
    pending.get(reply.id)?.(reply);
    pending.delete(reply.id);
  });
  const ask = (request: Op) =>
    new Promise<Reply>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, (reply) => (reply.error ? reject(new Error(reply.error)) : resolve(reply)));
      child.send({ ...request, id });
    });

  let closed: Promise<void> | undefined;
  return {
    url: ready.url,
    token: ready.token,
    setMode: async (mode, delayMs) => void (await ask({ op: 'mode', mode, delayMs })),
    requests: async () => (await ask({ op: 'requests' })).requests ?? 0,
    resetCounts: async () => void (await ask({ op: 'reset' })),
    close() {
      closed ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await ask({ op: 'close' }).catch(() => child.kill('SIGTERM'));
        await exited;
        clearTimeout(timer);
      })();
      return closed;
    },
  };
}

// The child: `node --import tsx e2e/support/upstash-emulator-process.ts`, started by startEmulatorProcess.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href && process.send) {
  const { startUpstashEmulator } = await import('../../tests/support/upstash-emulator');
  const send = (message: Ready | Reply) => process.send!(message);
  try {
    const emulator = await startUpstashEmulator({ keyPrefix: process.env.EMULATOR_KEY_PREFIX || undefined });
    const stop = () => void emulator.close().finally(() => process.exit(0));
    process.on('disconnect', stop); // the test process went away
    process.on('message', (m) => {
      const request = m as Request;
      if (request.op === 'mode') emulator.setMode(request.mode, request.delayMs);
      if (request.op === 'reset') emulator.resetCounts();
      if (request.op === 'close') {
        return void emulator.close().finally(() => process.send!({ id: request.id }, () => process.exit(0)));
      }
      send({ id: request.id, requests: emulator.requests });
    });
    send({ ready: true, url: emulator.url, token: emulator.token });
  } catch (err) {
    send({ ready: false, error: (err as Error).message });
    process.exit(1);
  }
}
