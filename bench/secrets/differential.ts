// Differential check of two builds of the secret engine: the same inputs through both, every result
// compared as JSON. For changes to the engine's speed that must not change what it finds.
// Run: build both trees (npx tsc -p bench/secrets/tsconfig.micro.json, the outDir changed for the
// other checkout), then: node <this build>/bench/secrets/differential.js <other build's outDir>
// Inputs: the tuning corpus (seeds 1 and 2), gitleaks' examples, their concatenations by 40 (the
// byte and WebAssembly paths), the adversarial inputs at 4 K and 64 K, random prose around the
// keywords, JSON payloads alone and in batches of 40, and Gitea issue lists with payloads in bodies.
import * as thisSecrets from '../../src/core/secrets';
import * as thisScanner from '../../src/core/secrets/pattern-scanner.util';
import * as thisPorted from '../../src/core/secrets/ported-rules.util';
import { buildCorpus, mulberry32, pick } from './corpus';
import { loadGitleaksExamples } from './gitleaks-examples';
import { ADVERSARIAL, buildIssueList } from './secrets-bench';

type Engine = { S: typeof thisSecrets; P: typeof thisScanner; R: typeof thisPorted };

function loadEngine(dir: string): Engine {
  /* eslint-disable @typescript-eslint/no-require-imports -- another build's output, by path */
  return {
    S: require(`${dir}/src/core/secrets`) as typeof thisSecrets,
    P: require(`${dir}/src/core/secrets/pattern-scanner.util`) as typeof thisScanner,
    R: require(`${dir}/src/core/secrets/ported-rules.util`) as typeof thisPorted,
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}

export function proseTexts(): string[] {
  const rng = mulberry32(99);
  const kws = ['password', 'Password', 'pass', 'token', 'TOKEN', 'secret', 'api', 'key', 'auth', 'access'];
  kws.push('bearer', 'Bearer', 'BEARER', 'bEaReR', 'authtoken', 'pwd', 'credential', 'beare', 'bearers');
  const pieces = [
    ' ',
    ' ',
    ' ',
    '\t',
    '\n',
    '"',
    '\\"',
    '\\',
    ' is ',
    ' was ',
    ' to ',
    ' | ',
    ': ',
    '=',
    '.',
    '\u0000',
    '**',
  ];
  const W = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const frag = (): string => {
    const r = rng();
    if (r < 0.15) return kws[Math.floor(rng() * kws.length)]!;
    if (r < 0.45) return pieces[Math.floor(rng() * pieces.length)]!;
    if (r < 0.7) return pick(rng, W, 1 + Math.floor(rng() * 12));
    if (r < 0.85) return pick(rng, W + '0123456789', 4 + Math.floor(rng() * 30));
    if (r < 0.95) return pick(rng, '0123456789', 1 + Math.floor(rng() * 4));
    return pick(rng, W + '_-', 40 + Math.floor(rng() * 80));
  };
  const out: string[] = [];
  for (let k = 0; k < 1500; k++) {
    let t = '';
    const len = k % 10 === 0 ? 5000 + Math.floor(rng() * 8000) : 20 + Math.floor(rng() * 600);
    while (t.length < len) t += frag();
    out.push(t);
  }
  return out;
}

export function differential(
  other: Engine,
  mine: Engine = { S: thisSecrets, P: thisScanner, R: thisPorted },
) {
  let comparisons = 0;
  const differences: string[] = [];
  const same = (label: string, f: (e: Engine) => unknown): void => {
    comparisons++;
    if (JSON.stringify(f(other)) !== JSON.stringify(f(mine))) differences.push(label);
  };
  const ctxs = [
    { exactSecrets: [] as string[], mode: 'mask' as const, skipPatterns: false },
    {
      exactSecrets: ['0123456789abcdef0123456789abcdef01234567', 'hunter2-secret'],
      mode: 'block' as const,
      skipPatterns: false,
    },
  ];
  const texts: string[] = [];
  const values: unknown[] = [];
  for (const seed of [1, 2]) {
    const { positives, negatives } = buildCorpus(seed);
    for (const it of [...positives, ...negatives]) {
      if (it.payload.kind === 'text') texts.push(it.payload.value);
      else {
        values.push(it.payload.value);
        texts.push(JSON.stringify(it.payload.value));
      }
    }
  }
  const ex = loadGitleaksExamples();
  for (const e of [...ex.positives, ...ex.negatives]) texts.push(e.text);
  const concat: string[] = [];
  for (let i = 0; i < texts.length; i += 40) concat.push(texts.slice(i, i + 40).join('\n'));
  const batches: unknown[] = [];
  for (let i = 0; i < values.length; i += 40) batches.push(values.slice(i, i + 40));
  const adv: string[] = [];
  for (const { make } of ADVERSARIAL) for (const size of [4096, 65536]) adv.push(make(size));
  const issues: unknown[] = [];
  for (let s = 1; s <= 4; s++) {
    const list = JSON.parse(JSON.stringify(buildIssueList(1 << 18, mulberry32(100 + s)))) as Array<{
      body: string;
    }>;
    const rng = mulberry32(s);
    for (let k = 0; k < list.length; k += 3) list[k]!.body += '\n' + texts[Math.floor(rng() * texts.length)]!;
    issues.push(list);
  }
  const textSets: Record<string, string[]> = { texts, concat, adv, prose: proseTexts() };
  for (const [name, arr] of Object.entries(textSets))
    arr.forEach((t, i) => {
      same(`${name}#${i} scanText`, (e) => e.P.scanText(t));
      if (name !== 'adv') same(`${name}#${i} scanTextWithoutWindows`, (e) => e.P.scanTextWithoutWindows(t));
      for (const c of ctxs)
        same(`${name}#${i} scrubText ${c.mode}`, (e) => {
          const r = e.S.scrubText(t, c);
          return [r.value, r.redactions, r.masks, r.blocked];
        });
      same(`${name}#${i} scanPortedRules`, (e) => {
        const out: unknown[] = [];
        e.R.scanPortedRules(t, out as Parameters<typeof thisPorted.scanPortedRules>[1]);
        return out;
      });
    });
  const valueSets: Record<string, unknown[]> = { values, batches, issues };
  for (const [name, arr] of Object.entries(valueSets))
    arr.forEach((v, i) => {
      for (const c of ctxs)
        same(`${name}#${i} scrubResult ${c.mode}`, (e) => {
          const r = e.S.scrubResult(v, c);
          return [r.value, r.redactions, r.masks, r.blocked];
        });
      same(`${name}#${i} scanText(JSON)`, (e) => e.P.scanText(JSON.stringify(v)));
    });
  return { comparisons, differences };
}

if (require.main === module) {
  const dir = process.argv[2];
  if (dir === undefined) throw new Error('usage: differential.js <other build output directory>');
  const { comparisons, differences } = differential(loadEngine(dir));
  for (const d of differences.slice(0, 20)) console.log(`difference: ${d}`);
  console.log(`${comparisons} comparisons, ${differences.length} differences`);
  process.exit(differences.length > 0 ? 1 : 0);
}
