// The plain HTTP GET the direct and pass-through targets are driven with (the fake Gitea's token,
// JSON accepted): what a sidecar call is compared against.
import { BENCH_GITEA_TOKEN } from '../sidecar/sidecar-process';
import type { Call } from './load-runner';

export function httpCall(base: string, pathAndQuery: string): Call {
  const url = base + pathAndQuery;
  const init = { headers: { Authorization: `token ${BENCH_GITEA_TOKEN}`, Accept: 'application/json' } };
  return async () => {
    const res = await fetch(url, init);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
  };
}
