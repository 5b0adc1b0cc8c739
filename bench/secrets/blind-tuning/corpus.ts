// Blind tuning corpus for the secret-masking engine: realistic leaks and hard negatives in Gitea
// 1.27 API bodies, written without reading the engine. See README.md in this folder.
import { FORMATS } from './formats';
import { NEGATIVES } from './negatives';
import { CONTEXTS, render, type Leak } from './render';
import { Rng } from './util';

export type BlindSample = {
  id: string;
  format: string;
  context: string;
  payload: string;
  secrets: string[];
  keep: string[];
};

export const SAMPLES_PER_FORMAT = 6;
export const SAMPLES_PER_NEGATIVE_KIND = 10;

const NO_HTTP_FAMILIES = new Set(['private-key', 'crypto', 'password']);
const NO_HTTP_NAMES =
  /age-secret|django|laravel|flask|session-secret|encryption-key|jwt-signing|hmac|pepper|unseal|nextauth|lfs-jwt|gitea-secret-key|gitea-internal|salts|keystore|wifi|bip39/;

/** People spell the same variable many ways. */
function varyName(r: Rng, n: string): string {
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(n) || r.chance(0.6)) return n;
  const words = n
    .split('_')
    .filter(Boolean)
    .map((w) => w.toLowerCase());
  switch (r.int(5)) {
    case 0:
      return words.join('_');
    case 1:
      return words.join('-');
    case 2:
      return (
        words[0] +
        words
          .slice(1)
          .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
          .join('')
      );
    case 3:
      return words.join('.');
    default:
      return words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('-');
  }
}

const uniq = (xs: string[]): string[] => [...new Set(xs.filter((x) => x.length > 0))];

export function generateBlindTuningCorpus(seed = 1): { samples: BlindSample[] } {
  const r = new Rng(seed);
  const samples: BlindSample[] = [];
  let ctxCounter = seed;
  for (const f of FORMATS) {
    for (let i = 0; i < SAMPLES_PER_FORMAT; i++) {
      const ctx = CONTEXTS[ctxCounter++ % CONTEXTS.length]!;
      const g = f.gen(r);
      const noHttp = f.kind === 'pass' || NO_HTTP_FAMILIES.has(f.family) || NO_HTTP_NAMES.test(f.name);
      const leak: Leak = {
        name: varyName(r, r.pick(f.names)),
        value: g.value,
        secrets: g.secrets,
        kind: g.value.includes('\n') ? 'pem' : f.kind,
        own: f.own,
        header: f.header,
        host: f.host,
        noHttp,
        family: f.family,
      };
      const out = render(r, ctx, leak);
      samples.push({
        id: `blind-${f.name}-${i + 1}`,
        format: f.name,
        context: out.context,
        payload: out.payload,
        secrets: uniq(out.secrets),
        keep: [],
      });
    }
  }
  for (const n of NEGATIVES) {
    for (let i = 0; i < SAMPLES_PER_NEGATIVE_KIND; i++) {
      const ctx = CONTEXTS[ctxCounter++ % CONTEXTS.length]!;
      const g = n.gen(r);
      const leak: Leak = {
        name: r.pick(n.names),
        value: g.value,
        secrets: g.keep,
        kind: g.value.includes('\n') ? 'pem' : n.lk,
        own: n.own,
        neg: true,
      };
      const out = render(r, ctx, leak);
      samples.push({
        id: `blind-neg-${n.kind}-${i + 1}`,
        format: `negative:${n.kind}`,
        context: out.context,
        payload: out.payload,
        secrets: [],
        keep: uniq(out.secrets),
      });
    }
  }
  return { samples };
}

function decodedFields(v: unknown, out: string[]): void {
  if (Array.isArray(v)) {
    for (const x of v) decodedFields(x, out);
  } else if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if ((k === 'content_base64' || k === 'content') && typeof x === 'string')
        out.push(Buffer.from(x, 'base64').toString('utf8'));
      else decodedFields(x, out);
    }
  }
}

/** True when `s` is in the payload text, or in a base64-decoded `content_base64`/`content` field of a JSON body. */
export function occursIn(payload: string, s: string): boolean {
  if (payload.includes(s)) return true;
  const t = payload.trimStart();
  if (!t.startsWith('{') && !t.startsWith('[')) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return false;
  }
  const decoded: string[] = [];
  decodedFields(parsed, decoded);
  return decoded.some((d) => d.includes(s));
}

export type BlindCorpusDescription = {
  samples: number;
  secretSamples: number;
  negativeSamples: number;
  secretSubstrings: number;
  keepStrings: number;
  formats: number;
  negativeKinds: number;
  perContext: Record<string, { secretSamples: number; negativeSamples: number; secretSubstrings: number }>;
  perFamily: Record<string, { formats: number; secretSubstrings: number }>;
};

export function describeBlindTuningCorpus(seed = 1): BlindCorpusDescription {
  const { samples } = generateBlindTuningCorpus(seed);
  const family = new Map(FORMATS.map((f) => [f.name, f.family]));
  const perContext: BlindCorpusDescription['perContext'] = {};
  const perFamily: BlindCorpusDescription['perFamily'] = {};
  const famFormats = new Map<string, Set<string>>();
  for (const c of CONTEXTS) perContext[c] = { secretSamples: 0, negativeSamples: 0, secretSubstrings: 0 };
  for (const s of samples) {
    const pc = (perContext[s.context] ??= { secretSamples: 0, negativeSamples: 0, secretSubstrings: 0 });
    if (s.format.startsWith('negative:')) {
      pc.negativeSamples++;
      continue;
    }
    pc.secretSamples++;
    pc.secretSubstrings += s.secrets.length;
    const fam = family.get(s.format) ?? 'unknown';
    const pf = (perFamily[fam] ??= { formats: 0, secretSubstrings: 0 });
    pf.secretSubstrings += s.secrets.length;
    const set = famFormats.get(fam) ?? new Set<string>();
    set.add(s.format);
    famFormats.set(fam, set);
    pf.formats = set.size;
  }
  const pos = samples.filter((s) => !s.format.startsWith('negative:'));
  const negs = samples.filter((s) => s.format.startsWith('negative:'));
  return {
    samples: samples.length,
    secretSamples: pos.length,
    negativeSamples: negs.length,
    secretSubstrings: pos.reduce((a, s) => a + s.secrets.length, 0),
    keepStrings: negs.reduce((a, s) => a + s.keep.length, 0),
    formats: new Set(pos.map((s) => s.format)).size,
    negativeKinds: new Set(negs.map((s) => s.format)).size,
    perContext,
    perFamily,
  };
}
