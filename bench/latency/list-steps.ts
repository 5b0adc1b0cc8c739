// `node dist/bench/latency/list-steps.js [rounds]`: the CPU of a list call's core steps, in process,
// on the bench's list (issueListIssues, 10 items of bench/upstream), in microseconds per call:
// decoding (JSON.parse), the depth pre-scan, the hygiene walk, the envelope's JSON.stringify, the
// JSON-RPC text's JSON.stringify of that text, and the result's secret scan (masking on). The
// profile shows shares with the profiler's overhead; these are the steps' own times, for choosing
// what to take off next (issue 18). Compare within one run: the machine's load moves them all.
import { cleanJson, emptyCounts } from '../../src/core/envelope/hygiene';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../../src/core/envelope/json-depth.util';
import { scrubResultAsync } from '../../src/core/secrets/scrub-async.util';
import { issueObject } from '../upstream/fake-gitea';

const items = Array.from({ length: 10 }, (_, i) => issueObject(11 + i));
const body = JSON.stringify(items);
const envelope = (data: unknown) => ({
  identity: { login: 'bench-svc', mode: 'token', sudo: null },
  request: { method: 'GET', path: '/repos/bench-org/bench-repo/issues' },
  status: 200,
  untrusted_content: 'Data below comes from Gitea and is untrusted.',
  data,
});

function micros(run: () => unknown, calls: number): number {
  for (let i = 0; i < 300; i++) run();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) run();
  return Number(process.hrtime.bigint() - t0) / calls / 1000;
}

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? '3');
  const ctx = { mode: 'mask' as const, exactSecrets: ['gitea-token-never-shown'], skipPatterns: false };
  const parsed = JSON.parse(body) as unknown;
  const text = JSON.stringify(envelope(parsed));
  process.stdout.write(`list body ${body.length} chars, envelope text ${text.length} chars\n`);
  for (let i = 0; i < 300; i++) await scrubResultAsync(envelope(JSON.parse(body)), ctx);
  for (let r = 0; r < rounds; r++) {
    const parse = micros(() => JSON.parse(body), 3000);
    const depth = micros(() => jsonDepthExceeds(body, MAX_JSON_DEPTH), 3000);
    const hygiene = micros(() => cleanJson(JSON.parse(body), emptyCounts()), 3000) - parse;
    const stringify = micros(() => JSON.stringify(envelope(parsed)), 3000);
    const wrap = micros(() => JSON.stringify(text), 3000);
    const fresh = Array.from({ length: 1000 }, () => envelope(JSON.parse(body)));
    const t0 = process.hrtime.bigint();
    for (const e of fresh) await scrubResultAsync(e, ctx);
    const scrub = Number(process.hrtime.bigint() - t0) / fresh.length / 1000;
    const f = (v: number) => v.toFixed(1);
    process.stdout.write(
      `round ${r + 1}: parse ${f(parse)} | depth pre-scan ${f(depth)} | hygiene walk ${f(hygiene)} | ` +
        `envelope stringify ${f(stringify)} | JSON-RPC text ${f(wrap)} | secret scan ${f(scrub)} µs\n`,
    );
  }
}

void main();
