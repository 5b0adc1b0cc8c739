// Quality and speed of the secret masking engine: recall / false positives on the labelled corpus,
// throughput on realistic 1 MB and 10 MB results, and linear scaling on adversarial inputs.
// Called by the benchmark runner; prints nothing itself.
import { performance } from 'node:perf_hooks';
import { scrubJsonText, scrubResult, scrubText } from '../../src/core/secrets';
import { buildCorpus, CorpusItem, mulberry32, pick, Rng } from './corpus';
import { measure, Measured } from './measure';
import { generateHeldOutCorpus } from './heldout/corpus';
import { runBoundedWorkBench, type BoundedWorkResult } from './bounded-work';
import { evaluateHeldOut } from './heldout/evaluate';
import { generateBlindTuningCorpus, occursIn as occursInBlind } from './blind-tuning/corpus';

export type CorpusScore = {
  positives: number;
  negatives: number;
  recall: number;
  falsePositiveRate: number;
  missed: Array<{ format: string }>;
  falsePositives: Array<{ format: string }>;
  perFormat: Record<string, { total: number; detected: number }>;
  perNegativeFormat: Record<string, { total: number; flagged: number }>;
};

export type ThroughputFigure = {
  bytes: number;
  medianMs: number;
  mbPerSecond: number;
  masks: number;
  /** fastest run */
  bestMs: number;
  /** process CPU time of the median run */
  cpuMedianMs: number;
  /** JSON.stringify of the same data, median, measured interleaved in the same run */
  stringifyMedianMs: number;
  /** median of per-run (scrub / JSON.stringify): the load-independent figure on a shared machine */
  ratioToStringify: number;
};
export type AdversarialFigure = {
  name: string;
  /** fastest scrubText of 32 K, 128 K and 512 K of the input */
  msSmall: number;
  msMid: number;
  msLarge: number;
  /** the larger of the two 4x steps' time ratios */
  ratio: number;
  linear: boolean;
};

export type SecretsBenchResult = {
  /** The held-out corpus (bench/secrets/heldout), reported apart from the tuning corpus below. */
  heldOut: HeldOutFigure;
  /**
   * The blind-written tuning corpus (bench/secrets/blind-tuning): written without reading the rules,
   * but tuned on since the twelfth pass; reported apart from both.
   */
  blindTuning: HeldOutFigure;
  /** /healthz latency and event-loop delay while huge bodies are fetched (bounded-work.ts). */
  boundedWork: BoundedWorkResult;
  recall: number;
  falsePositiveRate: number;
  corpus: { positives: number; negatives: number; formats: number };
  perFormat: Record<string, { total: number; detected: number }>;
  missed: Array<{ format: string }>;
  falsePositives: Array<{ format: string }>;
  throughput: {
    json1MB: ThroughputFigure;
    json10MB: ThroughputFigure;
    text1MB: ThroughputFigure;
    /** scrubJsonText on the unparsed 1 MB body, parse included (the executor's optional fast entry). */
    jsonText1MB: ThroughputFigure;
    adversarial: AdversarialFigure[];
  };
};

const MASK_CTX = { exactSecrets: [] as string[], mode: 'mask' as const, skipPatterns: false };

/** Everything an agent would see: the serialised output plus every decoded base64 field. */
function visibleText(value: unknown): string {
  const parts: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') parts.push(v);
    else if (Array.isArray(v)) stack.push(...v);
    else if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
        parts.push(k);
        if (typeof child === 'string' && (k === 'content' || k === 'content_base64'))
          parts.push(Buffer.from(child, 'base64').toString('utf8'));
        stack.push(child);
      }
    }
  }
  return parts.join('\n');
}

export function scrubPayload(item: CorpusItem): { text: string; masks: number } {
  if (item.payload.kind === 'text') {
    const r = scrubText(item.payload.value, MASK_CTX);
    // Text bodies may be JSON; unescape so an escaped secret still counts as visible.
    return { text: r.value + '\n' + r.value.replace(/\\n/g, '\n'), masks: r.masks };
  }
  const r = scrubResult(item.payload.value, MASK_CTX);
  return { text: visibleText(r.value), masks: r.masks };
}

/** A secret counts as caught when neither it nor any 12-character piece of it is still visible. */
export function leaked(text: string, secret: string): boolean {
  if (text.includes(secret)) return true;
  const w = 12;
  if (secret.length <= w) return false;
  for (let i = 0; i + w <= secret.length; i += 4) if (text.includes(secret.slice(i, i + w))) return true;
  return false;
}

export function scoreCorpus(seed?: number): CorpusScore {
  const { positives, negatives } = buildCorpus(seed);
  const perFormat: CorpusScore['perFormat'] = {};
  const perNegativeFormat: CorpusScore['perNegativeFormat'] = {};
  const missed: CorpusScore['missed'] = [];
  const falsePositives: CorpusScore['falsePositives'] = [];
  let detected = 0;
  for (const item of positives) {
    const f = (perFormat[item.format] ??= { total: 0, detected: 0 });
    f.total++;
    const { text } = scrubPayload(item);
    if (!leaked(text, item.secret!)) {
      detected++;
      f.detected++;
    } else missed.push({ format: item.format });
  }
  let flagged = 0;
  for (const item of negatives) {
    const f = (perNegativeFormat[item.format] ??= { total: 0, flagged: 0 });
    f.total++;
    if (scrubPayload(item).masks > 0) {
      flagged++;
      f.flagged++;
      falsePositives.push({ format: item.format });
    }
  }
  return {
    positives: positives.length,
    negatives: negatives.length,
    recall: detected / positives.length,
    falsePositiveRate: flagged / negatives.length,
    missed,
    falsePositives,
    perFormat,
    perNegativeFormat,
  };
}

/** The held-out figures (written by someone who never read the rules): aggregate figures only. */
export type HeldOutFigure = {
  secrets: number;
  formats: number;
  negatives: number;
  recall: number;
  falsePositiveRate: number;
  /** secret substrings still visible after masking, and look-alike samples changed */
  missed: number;
  falsePositives: number;
};

/**
 * The engine as the call path applies it: a JSON body is parsed and scrubbed, a text body scanned as
 * text. The masked JSON is written back the way the body came (Go's encoding/json escapes <, > and &
 * as \u003c, \u003e, \u0026, and so does the held-out corpus's payload), and an unchanged body is
 * returned as it came: the comparison is string against string, so a re-serialisation alone must not
 * look like a change (a `<token>` placeholder counted as masked) nor hide one.
 */
export function maskBody(payload: string): string {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return scrubText(payload, MASK_CTX).value;
  }
  const r = scrubResult(value, MASK_CTX);
  if (r.masks === 0 && r.redactions === 0) return payload;
  return goJsonEscape(JSON.stringify(r.value));
}

const GO_ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};
/** JSON text as Go's encoding/json writes it (HTML-safe escapes; outside strings these never occur). */
export function goJsonEscape(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => GO_ESCAPES[c]!);
}

export function scoreHeldOut(seed = 1): HeldOutFigure {
  const s = evaluateHeldOut(maskBody, generateHeldOutCorpus(seed));
  return {
    secrets: s.secrets,
    formats: s.formats,
    negatives: s.negatives,
    recall: s.recall,
    falsePositiveRate: s.falsePositiveRate,
    missed: Math.round((1 - s.recall) * s.secrets),
    falsePositives: Math.round(s.falsePositiveRate * s.negatives),
  };
}

/** The blind-written tuning corpus scored as the held-out one is (maskBody; a secret found when gone). */
export function scoreBlindTuningCorpus(seed = 1): HeldOutFigure {
  const { samples } = generateBlindTuningCorpus(seed);
  const formats = new Set<string>();
  let secrets = 0;
  let missed = 0;
  let negatives = 0;
  let falsePositives = 0;
  for (const sample of samples) {
    const masked = maskBody(sample.payload);
    if (sample.secrets.length > 0) {
      formats.add(sample.format);
      secrets += sample.secrets.length;
      missed += sample.secrets.filter((x) => occursInBlind(masked, x)).length;
    } else {
      negatives++;
      if (sample.keep.some((k) => !occursInBlind(masked, k))) falsePositives++;
    }
  }
  return {
    secrets,
    formats: formats.size,
    negatives,
    recall: secrets === 0 ? 0 : (secrets - missed) / secrets,
    falsePositiveRate: negatives === 0 ? 0 : falsePositives / negatives,
    missed,
    falsePositives,
  };
}

/** A realistic issue list of about `bytes` of JSON: prose, code, SHAs, URLs and a few secrets. */
export function buildIssueList(bytes: number, rng: Rng): unknown[] {
  const words =
    'the deploy fails when runner starts cache build release token expired please check config branch merge review docs update password reset link'.split(
      ' ',
    );
  const issues: unknown[] = [];
  let size = 0;
  for (let n = 1; size < bytes; n++) {
    let body = '';
    for (let i = 0; i < 60; i++)
      body += words[Math.floor(rng() * words.length)] + (i % 12 === 11 ? '.\n' : ' ');
    body += `\n\nFixed by ${pick(rng, '0123456789abcdef', 40)} in https://gitea.example.com/org/app/pulls/${n}\n`;
    if (n % 50 === 0)
      body += `\nleaked: ${['gh', 'p_'].join('')}${pick(rng, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 36)}\n`;
    const issue = {
      id: n,
      number: n,
      url: `https://gitea.example.com/api/v1/repos/org/app/issues/${n}`,
      html_url: `https://gitea.example.com/org/app/issues/${n}`,
      user: {
        id: n % 17,
        login: `user${n % 17}`,
        email: `user${n % 17}@example.org`,
        avatar_url: `https://gitea.example.com/avatars/${pick(rng, '0123456789abcdef', 32)}`,
      },
      title: `Issue ${n}: ${words[n % words.length]} problem`,
      body,
      labels: [{ id: 1, name: 'bug', color: 'ee0701', description: 'Something is not working' }],
      state: 'open',
      comments: n % 7,
      created_at: '2026-10-01T10:00:00Z',
      updated_at: '2026-10-02T10:00:00Z',
      repository: { id: 1, name: 'app', owner: 'org', full_name: 'org/app' },
    };
    size += JSON.stringify(issue).length;
    issues.push(issue);
  }
  return issues;
}

function once(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

function figure(bytes: number, masks: () => number, m: Measured): ThroughputFigure {
  return {
    bytes,
    medianMs: m.medianMs,
    mbPerSecond: round(bytes / 1048576 / (m.medianMs / 1000)),
    masks: masks(),
    bestMs: m.bestMs,
    cpuMedianMs: m.cpuMedianMs,
    stringifyMedianMs: m.baselineMedianMs,
    ratioToStringify: m.ratio,
  };
}

function throughputJson(bytes: number, runs: number): ThroughputFigure {
  // As the executor gets a result: parsed from Gitea's JSON text.
  const value = JSON.parse(JSON.stringify(buildIssueList(bytes, mulberry32(7)))) as unknown[];
  const actual = JSON.stringify(value).length;
  let masks = 0;
  const ctx = {
    exactSecrets: ['0123456789abcdef0123456789abcdef01234567'],
    mode: 'mask' as const,
    skipPatterns: false,
  };
  const m = measure(
    () => (masks = scrubResult(value, ctx).masks),
    () => JSON.stringify(value),
    runs,
  );
  return figure(actual, () => masks, m);
}

function throughputText(bytes: number, runs: number, asJson = false): ThroughputFigure {
  const value = buildIssueList(bytes, mulberry32(8));
  const text = JSON.stringify(value);
  let masks = 0;
  const m = measure(
    () => (masks = (asJson ? scrubJsonText(text, MASK_CTX) : scrubText(text, MASK_CTX)).masks),
    () => JSON.stringify(value),
    runs,
  );
  return figure(text.length, () => masks, m);
}

const round = (x: number): number => Math.round(x * 100) / 100;

/** Inputs built to provoke backtracking or repeated rescans: long runs and near-miss prefixes. */
export const ADVERSARIAL: Array<{ name: string; make: (n: number) => string }> = [
  { name: 'run-of-a', make: (n) => 'a'.repeat(n) },
  { name: 'run-of-equals', make: (n) => '='.repeat(n) },
  {
    name: 'base64-like',
    make: (n) => pick(mulberry32(3), 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', n),
  },
  { name: 'hex-run', make: (n) => pick(mulberry32(4), '0123456789abcdef', n) },
  {
    name: 'near-miss-github',
    make: (n) =>
      [`gh`, `p_`, 'a'.repeat(30), ' ']
        .join('')
        .repeat(Math.ceil(n / 35))
        .slice(0, n),
  },
  {
    name: 'near-miss-aws',
    make: (n) =>
      ['AK', 'IA', 'AAAAAAAAAAAAAA']
        .join('')
        .repeat(Math.ceil(n / 18))
        .slice(0, n),
  },
  { name: 'jwt-prefixes', make: (n) => 'eyJ'.repeat(Math.ceil(n / 3)).slice(0, n) },
  { name: 'jwt-segments', make: (n) => 'eyJaaaaaaaaaaaa.'.repeat(Math.ceil(n / 16)).slice(0, n) },
  {
    name: 'pem-begin-no-end',
    make: (n) =>
      ['-----BEG', 'IN RSA PRIV', 'ATE KEY-----\n']
        .join('')
        .repeat(Math.ceil(n / 32))
        .slice(0, n),
  },
  { name: 'url-schemes', make: (n) => 'a://'.repeat(Math.ceil(n / 4)).slice(0, n) },
  {
    name: 'url-userinfo-no-at',
    make: (n) => ('https://user:' + 'p'.repeat(300) + ' ').repeat(Math.ceil(n / 314)).slice(0, n),
  },
  {
    name: 'assignment-keywords',
    make: (n) => 'password=token=secret='.repeat(Math.ceil(n / 22)).slice(0, n),
  },
  {
    name: 'keyword-long-value',
    make: (n) => ('api_key=' + 'Z9'.repeat(400) + '\n').repeat(Math.ceil(n / 809)).slice(0, n),
  },
  { name: 'bearer-spaces', make: (n) => 'Authorization: Bearer   '.repeat(Math.ceil(n / 24)).slice(0, n) },
  { name: 'mailchimp-suffixes', make: (n) => '-us1'.repeat(Math.ceil(n / 4)).slice(0, n) },
  { name: 'telegram-colons', make: (n) => '12345678:AA'.repeat(Math.ceil(n / 11)).slice(0, n) },
  { name: 'azure-q-tilde', make: (n) => 'abc1Q~'.repeat(Math.ceil(n / 6)).slice(0, n) },
  { name: 'mask-like', make: (n) => '[[aegis-masked:'.repeat(Math.ceil(n / 15)).slice(0, n) },
  // One long run of blanks after a keyword and a line break (or a table or CSV header, or a prose
  // verb): rules that allowed a line prefix and indentation as side-by-side unbounded runs of
  // blanks took cubic time here (4 KiB: 36 s) before the line prefix was bounded (2026-12-07).
  ...(
    [
      ['blanks-after-password-line', 'password:\n'],
      ['blanks-after-recovery-codes', 'recovery_codes:\n'],
      ['blanks-after-table-header', '| key |\n'],
      ['blanks-after-csv-header', 'key,a\n'],
      ['blanks-after-prose-verb', 'the smtp pass is'],
      ['blanks-after-credentials', 'credentials '],
    ] as const
  ).map(([name, head]) => ({
    name,
    make: (n: number) => head + ' '.repeat(Math.max(0, n - head.length - 1)) + 'x',
  })),
  // Repeated keywords of the review follow-ups' rules (HTML-escaped quotes, a community's words, a
  // hook's name, a mnemonic's words, an ellipsis preview), each before a long near-miss run.
  ...(
    [
      ['escaped-quotes', 'password&quot;: &quot;', 'a1'],
      ['community-words', 'community: ', 'Ab'],
      ['hooks-code-words', '/hooks/code/', 'ab-'],
      ['mnemonic-words', 'recovery phrase: ', 'abc '],
      ['ellipsis-previews', 'password: ', 'a\u2026'],
    ] as const
  ).map(([name, head, unit]) => {
    const line = head + unit.repeat(200) + '\n';
    return { name, make: (n: number) => line.repeat(Math.ceil(n / line.length)).slice(0, n) };
  }),
  { name: 'escaped-quotes-run', make: (n) => '&quot;'.repeat(Math.ceil(n / 6)).slice(0, n) },
];

// Three sizes, each 4x the one before, from below MAX_BLOB (64 K, the longest base64/hex run the
// encoded-blob scan decodes) to well past it: work that grows with the square of a run's length up
// to that bound, then by the bound per probe (a8ffa7f's fix), shows as a step between the first two
// sizes, which two sizes both past 64 K (or both below it, for cheap kinds) cannot show.
const ADVERSARIAL_SIZES = [32 * 1024, 128 * 1024, 512 * 1024] as const;

function adversarial(quick: boolean): AdversarialFigure[] {
  const runs = quick ? 3 : 7;
  const ctx = { exactSecrets: ['aaaa', 'secret-value'], mode: 'mask' as const, skipPatterns: false };
  return ADVERSARIAL.map(({ name, make }) => {
    const inputs = ADVERSARIAL_SIZES.map((n) => make(n));
    // The sizes alternate, so a burst of load on the shared machine hits all alike; the fastest run
    // of each is the least disturbed figure.
    const ms = inputs.map(() => Infinity);
    for (const t of inputs) scrubText(t, ctx);
    for (let i = 0; i < runs; i++)
      inputs.forEach((t, k) => {
        ms[k] = Math.min(
          ms[k]!,
          once(() => scrubText(t, ctx)),
        );
      });
    // 4x the input should cost about 4x the time at each step; allow generous noise before calling
    // it non-linear (a step under 5 ms is too small to judge).
    let ratio = 0;
    let linear = true;
    for (let k = 1; k < ms.length; k++) {
      const r = ms[k]! / Math.max(ms[k - 1]!, 0.01);
      ratio = Math.max(ratio, r);
      if (!(r < 8 || ms[k]! < 5)) linear = false;
    }
    return {
      name,
      msSmall: round(ms[0]!),
      msMid: round(ms[1]!),
      msLarge: round(ms[2]!),
      ratio: round(ratio),
      linear,
    };
  });
}

export async function runSecretsBench({
  quick = false,
}: { quick?: boolean } = {}): Promise<SecretsBenchResult> {
  const score = scoreCorpus();
  const runs = quick ? 5 : 15;
  const result: SecretsBenchResult = {
    heldOut: scoreHeldOut(),
    blindTuning: scoreBlindTuningCorpus(),
    boundedWork: await runBoundedWorkBench({ quick }),
    recall: round(score.recall * 10000) / 10000,
    falsePositiveRate: round(score.falsePositiveRate * 10000) / 10000,
    corpus: {
      positives: score.positives,
      negatives: score.negatives,
      formats: Object.keys(score.perFormat).length,
    },
    perFormat: score.perFormat,
    missed: score.missed,
    falsePositives: score.falsePositives,
    throughput: {
      json1MB: throughputJson(1 << 20, runs),
      json10MB: throughputJson(10 << 20, quick ? 2 : 3),
      text1MB: throughputText(1 << 20, runs),
      jsonText1MB: throughputText(1 << 20, runs, true),
      adversarial: adversarial(quick),
    },
  };
  return result;
}
