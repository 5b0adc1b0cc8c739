// Probe of tuning-side formats: many draws of each format in bench/secrets/corpus-probe.ts, placed in
// every embedding of the tuning corpus, and the misses printed with the line that held them. For
// finding weak spots of the engine from the tuning side only (never run on the held-out corpus).
// Run: npx tsc -p bench/secrets/tsconfig.micro.json --outDir /tmp/sec-probe &&
//      node /tmp/sec-probe/bench/secrets/probe.js [draws per format] [name filter] [examples]
import { embed, mulberry32 } from './corpus';
import { PROBE_NEGATIVE_FORMATS, PROBE_SECRET_FORMATS } from './corpus-probe';
import { leaked, scrubPayload } from './secrets-bench';

const EXACT = process.env.EXACT === '1';

export function probe(
  draws: number,
  filter: string,
  examples: number,
): { missed: number; total: number; fp: number } {
  let missed = 0;
  let total = 0;
  let fp = 0;
  for (const f of PROBE_SECRET_FORMATS) {
    if (!f.name.includes(filter)) continue;
    const rng = mulberry32(4242 + f.name.length);
    let m = 0;
    const shown: string[] = [];
    for (let i = 0; i < draws; i++) {
      const { secret, line, all } = f.make(rng);
      const payload = f.body === 'text' ? { kind: 'text' as const, value: line } : embed(rng, line, i);
      const { text } = scrubPayload({ format: f.name, payload, secret });
      const secrets = all ?? [secret];
      // EXACT=1: missed only when the whole secret is still visible (a partial mask counts as found)
      const miss = secrets.filter((s) => (EXACT ? text.includes(s) : leaked(text, s)));
      total += secrets.length;
      if (miss.length > 0) {
        m += miss.length;
        if (shown.length < examples)
          shown.push(
            `  [v${i % 10}] ${JSON.stringify(line).slice(0, 300)}  MISSED ${JSON.stringify(miss[0])}`,
          );
      }
    }
    missed += m;
    if (m > 0) console.log(`${f.name}: ${m} missed\n${shown.join('\n')}`);
  }
  for (const f of PROBE_NEGATIVE_FORMATS) {
    if (!f.name.includes(filter)) continue;
    const rng = mulberry32(77 + f.name.length);
    let k = 0;
    const shown: string[] = [];
    for (let i = 0; i < draws; i++) {
      const line = f.make(rng);
      const payload = embed(rng, line, i);
      const r = scrubPayload({ format: f.name, payload, secret: null });
      if (r.masks > 0) {
        k++;
        if (shown.length < examples) shown.push(`  [v${i % 10}] ${JSON.stringify(line).slice(0, 300)}`);
      }
    }
    fp += k;
    if (k > 0) console.log(`NEGATIVE ${f.name}: ${k} flagged\n${shown.join('\n')}`);
  }
  return { missed, total, fp };
}

if (require.main === module) {
  const r = probe(Number(process.argv[2] ?? 100), process.argv[3] ?? '', Number(process.argv[4] ?? 3));
  console.log(`missed ${r.missed} of ${r.total} secrets; ${r.fp} negatives flagged`);
}
