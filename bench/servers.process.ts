// Child-process entry for the benchmark's helper servers, so that each hop has its own event loop
// (as the sidecar has): `node dist/bench/servers.process.js upstream` or `... proxy <upstreamUrl>`.
// Reports {url} to the parent over IPC and exits when the parent disconnects or sends 'stop'.
import { startPassThrough } from './proxy/pass-through';
import { startFakeGitea } from './upstream/fake-gitea';

async function main(): Promise<void> {
  const [kind, upstream] = process.argv.slice(2);
  const started = kind === 'proxy' && upstream ? await startPassThrough(upstream) : await startFakeGitea();
  const stop = (): void => {
    void started.close().then(() => process.exit(0));
  };
  process.on('message', (m) => m === 'stop' && stop());
  process.on('disconnect', stop);
  process.send?.({ url: started.url });
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
