// The blind-written tuning corpus (bench/secrets/blind-tuning) scored with the held-out evaluator's
// rules: each sample masked by `maskBody` (as the bench masks the held-out corpus); a secret is
// missed when it still occurs in the masked payload (or a decoded base64 field), a look-alike sample
// is a false positive when any kept string no longer occurs. Prints recall, false-positive rate and,
// for tuning, the misses and false positives grouped by format with an excerpt around each.
// This is TUNING data: never point this script at bench/secrets/heldout.
// Run: npx tsc -p bench/secrets/tsconfig.micro.json --outDir /tmp/sec-blind &&
//      NODE_PATH=$PWD/node_modules node /tmp/sec-blind/bench/secrets/blind-tuning-eval.js [seed] [format filter] [examples per format]
//      (QUIET=1: totals only)
import { generateBlindTuningCorpus, occursIn, type BlindSample } from './blind-tuning/corpus';
import { maskBody } from './secrets-bench';

export type BlindTuningScore = {
  seed: number;
  secrets: number;
  formats: number;
  negatives: number;
  found: number;
  falsePositives: number;
  recall: number;
  falsePositiveRate: number;
  missed: Array<{ sample: BlindSample; secret: string; masked: string }>;
  flagged: Array<{ sample: BlindSample; lost: string[]; masked: string }>;
};

export function scoreBlindTuning(seed = 1, mask: (payload: string) => string = maskBody): BlindTuningScore {
  const { samples } = generateBlindTuningCorpus(seed);
  const formats = new Set<string>();
  const missed: BlindTuningScore['missed'] = [];
  const flagged: BlindTuningScore['flagged'] = [];
  let secrets = 0;
  let found = 0;
  let negatives = 0;
  for (const sample of samples) {
    const masked = mask(sample.payload);
    if (sample.secrets.length > 0) {
      formats.add(sample.format);
      for (const s of sample.secrets) {
        secrets++;
        if (occursIn(masked, s)) missed.push({ sample, secret: s, masked });
        else found++;
      }
    } else {
      negatives++;
      const lost = sample.keep.filter((k) => !occursIn(masked, k));
      if (lost.length > 0) flagged.push({ sample, lost, masked });
    }
  }
  return {
    seed,
    secrets,
    formats: formats.size,
    negatives,
    found,
    falsePositives: flagged.length,
    recall: secrets === 0 ? 0 : found / secrets,
    falsePositiveRate: negatives === 0 ? 0 : flagged.length / negatives,
    missed,
    flagged,
  };
}

/** The text around `needle` in the payload (or its decoded base64 fields), on one line. */
function excerpt(payload: string, needle: string, width = 110): string {
  let text = payload;
  let at = text.indexOf(needle);
  if (at < 0) {
    try {
      const v = JSON.parse(payload) as unknown;
      const stack: unknown[] = [v];
      while (stack.length > 0 && at < 0) {
        const x = stack.pop();
        if (Array.isArray(x)) stack.push(...x);
        else if (x !== null && typeof x === 'object')
          for (const [k, c] of Object.entries(x as Record<string, unknown>)) {
            if ((k === 'content' || k === 'content_base64') && typeof c === 'string') {
              const d = Buffer.from(c, 'base64').toString('utf8');
              if (d.includes(needle)) {
                text = d;
                at = d.indexOf(needle);
                break;
              }
            } else stack.push(c);
          }
      }
    } catch {
      /* raw text */
    }
  }
  if (at < 0) return JSON.stringify(needle);
  const from = Math.max(0, at - width);
  const to = Math.min(text.length, at + needle.length + 40);
  return JSON.stringify(text.slice(from, at) + '«' + needle + '»' + text.slice(at + needle.length, to));
}

/** The mask kinds in a masked payload (which rules fired). */
function kinds(masked: string): string {
  return [...new Set(masked.match(/aegis-masked:[a-z0-9-]+/g) ?? [])].join(', ');
}

function main(): void {
  const seed = Number(process.argv[2] ?? 1);
  const filter = process.argv[3] ?? '';
  const examples = Number(process.argv[4] ?? 3);
  const s = scoreBlindTuning(seed);
  const pct = (x: number): string => (100 * x).toFixed(2) + ' %';
  if (process.env.QUIET !== '1') {
    const byFormat = new Map<string, BlindTuningScore['missed']>();
    for (const m of s.missed) {
      if (!m.sample.format.includes(filter)) continue;
      const l = byFormat.get(m.sample.format) ?? [];
      l.push(m);
      byFormat.set(m.sample.format, l);
    }
    console.log(`MISSES by format (${byFormat.size} formats)`);
    for (const [format, ms] of [...byFormat].sort((a, b) => b[1].length - a[1].length)) {
      console.log(`${format}: ${ms.length} missed`);
      for (const m of ms.slice(0, examples))
        console.log(`  [${m.sample.context}] ${excerpt(m.sample.payload, m.secret)}`);
    }
    const byNeg = new Map<string, BlindTuningScore['flagged']>();
    for (const f of s.flagged) {
      if (!f.sample.format.includes(filter)) continue;
      const l = byNeg.get(f.sample.format) ?? [];
      l.push(f);
      byNeg.set(f.sample.format, l);
    }
    console.log(`FALSE POSITIVES by kind (${byNeg.size} kinds)`);
    for (const [format, fs] of [...byNeg].sort((a, b) => b[1].length - a[1].length)) {
      console.log(`${format}: ${fs.length} flagged`);
      for (const f of fs.slice(0, examples))
        console.log(
          `  [${f.sample.context}] ${excerpt(f.sample.payload, f.lost[0]!)} masked as ${kinds(f.masked)}`,
        );
    }
  }
  console.log(
    `blind-tuning seed ${seed}: recall ${pct(s.recall)} (${s.found}/${s.secrets}, ${s.missed.length} missed, ${s.formats} formats), ` +
      `false positives ${pct(s.falsePositiveRate)} (${s.falsePositives}/${s.negatives})`,
  );
}

if (require.main === module) main();
