// Starts one of the bench's helper servers (bench/servers.process.ts: the fake Gitea `upstream`,
// the pass-through `proxy <upstream url>`) in a child process and waits for the URL it listens on.
import { fork, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

export async function forkServer(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = fork(path.join(__dirname, '..', 'servers.process.js'), args, {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`helper server ${args[0]} did not start`)), 10_000);
    child.once('message', (m: unknown) => {
      clearTimeout(timer);
      resolve((m as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`helper server ${args[0]} exited with ${code}`)));
  });
  return { url, child };
}

/** The fake Gitea. */
export const forkUpstream = (): Promise<{ url: string; child: ChildProcess }> => forkServer(['upstream']);
