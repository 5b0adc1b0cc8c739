// Runs the service (or its demo launcher) as a child process the way an operator would, with
// only the environment given, and collects what it prints. `untilStdout` sends a signal once
// the output matches (the point the test waits for); `killAfterMs` ends a child that hangs.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(__dirname, '../../..');
const REGISTER = join(__dirname, 'ts-register.js');

/** The entry point from its TypeScript sources, through the suite's ts-node register hook. */
export const MAIN_FROM_SOURCES = ['-r', REGISTER, join(ROOT, 'src/main.ts')];

export type ChildRun = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

export type ChildOptions = {
  untilStdout?: RegExp;
  thenSignal?: NodeJS.Signals;
  killAfterMs?: number;
};

export function runChild(args: string[], env: Record<string, string>, options: ChildOptions = {}) {
  return new Promise<ChildRun>((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let signalled = false;
    const killer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (options.untilStdout && !signalled && options.untilStdout.test(stdout)) {
        signalled = true;
        child.kill(options.thenSignal ?? 'SIGTERM');
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
