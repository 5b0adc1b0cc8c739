// The two layers of ADR 0005's secret handling, applied to a whole result at once.
// The strings of the result are gathered into slots, joined into one buffer and scanned in a single
// pass per layer: that keeps the per-string overhead out of large results. Three paths, in order:
// 1. scrubStrings (objects and arrays): visits the strings in place, scans only those long enough
//    to hold a secret (repeated ones and keys once), writes changes by copy on write;
// 2. scrubChunked: serialises (per element when needed), scans the JSON text, parses back what
//    changed; used when the string walk declines (a changed key, nesting beyond 10 000 levels);
// 3. walkScrub: a full walk with base64 contents decoded to text and very short exact secrets.
// Every walk uses an explicit stack, so no depth of nesting can exhaust the call stack.
import { createHash, hash } from 'node:crypto';

import { formatMask } from './mask-format.util';
import { PatternMatch } from './pattern-rules.util';
import {
  acceptAssignedValue,
  keyStartsAssignment,
  namesKeying,
  namesSecret,
  namesSecretVariable,
  scanText,
} from './pattern-scanner.util';
import { namesProvider } from './ported-rules.util';
import {
  DEFAULT_CONTAINER_POLICY,
  driveSync,
  scanOpaque,
  type ContainerPolicy,
  type OpaqueVerdict,
} from './bytes-scan.util';
import { containerKind } from './container.util';
import { classifyBytes, decodeBytes, encodeText, type ByteClass } from './text-encoding.util';

import type { SecretDetectionMode } from './detection-mode';
import { REDACTED } from './redaction-marker';

export type DetectionMode = SecretDetectionMode;
export type ScrubContext = {
  exactSecrets: string[];
  mode: DetectionMode;
  skipPatterns: boolean;
  /** How containers (zip, tar, gzip) are treated; DEFAULT_CONTAINER_POLICY when absent. */
  containers?: ContainerPolicy;
  /** Verdicts on opaque base64 fields worked out beforehand (scrubResultAsync), by their text. */
  opaqueVerdicts?: Map<string, OpaqueVerdict>;
};
export type ScrubResult<T = unknown> = {
  value: T;
  redactions: number;
  masks: number;
  /**
   * Set when the result must not be returned: `kinds` found (never values), and `reason` when the
   * cause is not block mode (a secret inside binary content or an archive, an archive that could
   * not be scanned).
   */
  blocked: null | { kinds: string[]; reason?: string };
  /**
   * Optional: `JSON.stringify(value)` when the fast path already produced it, so a caller that
   * serialises the result next can reuse it instead of serialising again.
   */
  json?: string;
};

export { REDACTED };
const SEP = '\u0000';

const F_KEY = 1; // slot is an object key
const F_B64 = 2; // slot is decoded base64 text, re-encoded afterwards
const F_EXACT_ONLY = 4; // no pattern scan (binary base64, data: URIs)
const F_FIELD = 8; // value of a secret-named field: masked whole
const F_AUTH_FIELD = 16; // value of an authorization field: the credential after the scheme is masked

type TNode =
  | { k: 'v'; v: unknown }
  | { k: 's'; i: number }
  | { k: 'b'; i: number; raw: string; cls: ByteClass; bytes: Uint8Array }
  | { k: 'a'; items: TNode[] }
  | { k: 'o'; keys: number[]; vals: TNode[] };

const SECRET_FIELD_NAMES = [
  'password',
  'passwd',
  'pwd',
  'secret',
  'client_secret',
  'secret_key',
  'token',
  'access_token',
  'refresh_token',
  'auth_token',
  'auth',
  'id_token',
  'api_key',
  'apikey',
  'private_key',
  'access_key',
  'secret_access_key',
  'webhook_secret',
];
const AUTH_FIELD_NAMES = ['authorization', 'authorization_header', 'proxy_authorization'];

function fieldFlag(key: string): number {
  const k = key.toLowerCase();
  if (k.length > 64) return 0;
  const hit = (name: string): boolean =>
    k === name || (k.endsWith(name) && /[_-]/.test(k[k.length - name.length - 1]!));
  if (AUTH_FIELD_NAMES.some(hit)) return F_AUTH_FIELD;
  return SECRET_FIELD_NAMES.some(hit) ? F_FIELD : 0;
}

const BASE64_RE = /^[A-Za-z0-9+/\r\n]*={0,2}\s*$/;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decoded text of a base64 string when it is UTF-8 text (no NUL), else null. */
export function decodeBase64Text(raw: string): string | null {
  if (raw.length === 0 || !BASE64_RE.test(raw)) return null;
  try {
    const text = utf8.decode(Buffer.from(raw, 'base64'));
    return text.includes(SEP) ? null : text;
  } catch {
    return null;
  }
}

/** Bytes of a base64 string, or null when it is not base64. */
export function decodeBase64(raw: string): Uint8Array | null {
  if (raw.length === 0 || !BASE64_RE.test(raw)) return null;
  return Buffer.from(raw, 'base64');
}

/**
 * Base64 contents are decoded and looked at as bytes: text in any encoding (UTF-8, UTF-16, Latin-1)
 * is scanned as text and re-encoded in its own encoding when changed; anything else (binary,
 * archives) is scanned as opaque bytes and, when something is found, withholds the result.
 */
class Collector {
  texts: string[] = [];
  flags: number[] = [];
  verdicts: OpaqueVerdict[] = [];

  constructor(private readonly ctx?: ScrubContext) {}

  private base64Node(raw: string): TNode {
    const bytes = decodeBase64(raw);
    if (bytes === null) return { k: 's', i: this.slot(raw, F_EXACT_ONLY) };
    const cls = classifyBytes(bytes);
    if (cls.text && containerKind(bytes) === null)
      return { k: 'b', i: this.slot(decodeBytes(bytes, cls), F_B64), raw, cls, bytes };
    const ctx = this.ctx;
    if (ctx) {
      const verdict =
        ctx.opaqueVerdicts?.get(raw) ??
        driveSync(
          scanOpaque(bytes, {
            exactSecrets: ctx.exactSecrets ?? [],
            patterns: ctx.mode !== 'off' && !ctx.skipPatterns,
            containers: ctx.containers ?? DEFAULT_CONTAINER_POLICY,
          }),
        );
      this.verdicts.push(verdict);
    }
    return { k: 's', i: this.slot(raw, F_EXACT_ONLY) };
  }

  slot(text: string, flags: number): number {
    this.texts.push(text);
    this.flags.push(flags);
    return this.texts.length - 1;
  }

  build(value: unknown): TNode {
    const holder: TNode[] = [];
    const stack: Array<{ v: unknown; into: TNode[]; at: number; flags: number }> = [
      { v: value, into: holder, at: 0, flags: 0 },
    ];
    while (stack.length > 0) {
      const { v, into, at, flags } = stack.pop()!;
      if (typeof v === 'string') {
        const dataUri = v.startsWith('data:image/') ? F_EXACT_ONLY : 0;
        into[at] = { k: 's', i: this.slot(v, flags | dataUri) };
      } else if (Array.isArray(v)) {
        const node: TNode = { k: 'a', items: new Array<TNode>(v.length) };
        into[at] = node;
        for (let j = v.length - 1; j >= 0; j--) stack.push({ v: v[j], into: node.items, at: j, flags: 0 });
      } else if (v !== null && typeof v === 'object') {
        const entries = Object.entries(v as Record<string, unknown>);
        const node: TNode = { k: 'o', keys: [], vals: new Array<TNode>(entries.length) };
        into[at] = node;
        const record = v as Record<string, unknown>;
        const b64Content = record.encoding === 'base64' && typeof record.content === 'string';
        for (let j = 0; j < entries.length; j++) {
          const [key, child] = entries[j]!;
          node.keys.push(this.slot(key, F_KEY));
          if (typeof child === 'string' && ((b64Content && key === 'content') || key === 'content_base64')) {
            node.vals[j] = this.base64Node(child);
          } else {
            stack.push({
              v: child,
              into: node.vals,
              at: j,
              flags: typeof child === 'string' ? fieldFlag(key) : 0,
            });
          }
        }
      } else {
        into[at] = { k: 'v', v };
      }
    }
    return holder[0]!;
  }

  rebuild(root: TNode, texts: string[]): unknown {
    const holder: unknown[] = [];
    const stack: Array<{ n: TNode; into: unknown[] | Record<string, unknown>; at: number | string }> = [
      { n: root, into: holder, at: 0 },
    ];
    while (stack.length > 0) {
      const { n, into, at } = stack.pop()!;
      const put = (val: unknown): void => {
        (into as Record<string | number, unknown>)[at] = val;
      };
      switch (n.k) {
        case 'v':
          put(n.v);
          break;
        case 's':
          put(texts[n.i]);
          break;
        case 'b':
          put(
            texts[n.i] === this.texts[n.i]
              ? n.raw
              : encodeText(texts[n.i]!, n.cls, n.bytes).toString('base64'),
          );
          break;
        case 'a': {
          const arr = new Array<unknown>(n.items.length);
          put(arr);
          for (let j = n.items.length - 1; j >= 0; j--) stack.push({ n: n.items[j]!, into: arr, at: j });
          break;
        }
        case 'o': {
          const obj: Record<string, unknown> = {};
          put(obj);
          const keys: string[] = [];
          for (const ki of n.keys) {
            let key = texts[ki]!;
            // Two keys redacted to the same text must not overwrite each other.
            for (let c = 2; Object.prototype.hasOwnProperty.call(obj, key); c++) key = `${texts[ki]}#${c}`;
            obj[key] = null; // reserve the position so the key order is kept
            keys.push(key);
          }
          for (let j = n.vals.length - 1; j >= 0; j--) stack.push({ n: n.vals[j]!, into: obj, at: keys[j]! });
          break;
        }
      }
    }
    return holder[0];
  }
}

// The same few secrets (the caller's token, the configured ones) come with every call: their
// variants are remembered (a small cache, in memory only, started over when full), keyed by a
// SHA-256 of the list so that no secret is kept as a key (the variants themselves are the value).
const variantCache = new Map<string, readonly string[]>();
const VARIANT_CACHE_SIZE = 64;
const NO_VARIANTS: readonly string[] = Object.freeze([]);

/** The cache's keys (for a test: they must name no secret). */
export function variantCacheKeys(): string[] {
  return [...variantCache.keys()];
}

/** The forms in which an exact secret can appear in a result: as is, URL-encoded, JSON-escaped. */
function secretVariants(secrets: readonly string[], jsonOnly: boolean): readonly string[] {
  if (secrets.length === 0) return NO_VARIANTS;
  const key = variantKey(secrets, jsonOnly);
  let cached = variantCache.get(key);
  if (cached === undefined) {
    cached = Object.freeze(computeVariants(secrets, jsonOnly));
    if (variantCache.size >= VARIANT_CACHE_SIZE) variantCache.clear();
    variantCache.set(key, cached);
  }
  return cached;
}

/**
 * The cache key of a list of secrets: a SHA-256 of the list in the caller's order (the variants'
 * order among equal lengths follows it), each secret with its length before it, so no two lists
 * share a key. Usually one string hashed in one shot (no Hash object per call: every call's result
 * and stored arguments ask); a list holding a UTF-16 surrogate, whose UTF-8 form could stand for
 * another string (a lone surrogate), is hashed as UTF-16 code units instead, under another prefix.
 */
function variantKey(secrets: readonly string[], jsonOnly: boolean): string {
  let input = jsonOnly ? 'J' : 'P';
  for (const s of secrets) {
    if (typeof s !== 'string') input += '-1:';
    else if (SURROGATE.test(s)) return variantKeyUtf16(secrets, jsonOnly);
    else input += `${s.length}:${s}`;
  }
  return hash('sha256', input, 'base64');
}

const SURROGATE = /[\uD800-\uDFFF]/;

function variantKeyUtf16(secrets: readonly string[], jsonOnly: boolean): string {
  const h = createHash('sha256').update(jsonOnly ? 'j' : 'p');
  for (const s of secrets) {
    const t = typeof s === 'string' ? s : '';
    h.update(`${typeof s === 'string' ? t.length : -1}:`).update(t, 'utf16le');
  }
  return h.digest('base64');
}

function computeVariants(secrets: readonly string[], jsonOnly: boolean): string[] {
  const out = new Set<string>();
  for (const s of secrets) {
    if (typeof s !== 'string' || s.length === 0 || s.includes(SEP)) continue;
    // A lone surrogate has no URL-encoded form (encodeURIComponent throws): its variants are the rest.
    let url = s;
    try {
      url = encodeURIComponent(s);
    } catch {
      // URIError: no URL form
    }
    const json = JSON.stringify(s).slice(1, -1);
    if (jsonOnly) {
      out.add(json);
      if (url !== s) out.add(JSON.stringify(url).slice(1, -1));
      continue;
    }
    out.add(s);
    if (url !== s) out.add(url);
    if (json !== s) out.add(json);
  }
  // Longest first, so a secret that contains another is removed whole.
  return [...out].sort((a, b) => b.length - a.length);
}

type Span = { start: number; end: number };

function segmentOf(starts: number[], pos: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Groups spans of the joined buffer by slot, dropping any span that crosses a slot boundary. */
function bySlot<T extends Span>(
  spans: T[],
  starts: number[],
  lengths: number[],
  clipQuote = false,
): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const span of spans) {
    const seg = segmentOf(starts, span.start);
    const segEnd = starts[seg]! + lengths[seg]!;
    let end = span.end;
    // A pattern whose match takes an optional closing quote (gitleaks' Kubernetes rule: `value"?`)
    // reaches the quote the walk puts around each string: the match ends at the string's end.
    if (end > segEnd) {
      if (!(clipQuote && end === segEnd + 1 && span.start < segEnd)) continue;
      end = segEnd;
    }
    const rel = { ...span, start: span.start - starts[seg]!, end: end - starts[seg]! };
    const list = out.get(seg);
    if (list) list.push(rel);
    else out.set(seg, [rel]);
  }
  return out;
}

type Joined = { joined: string; starts: number[]; lengths: number[] };

function join(texts: string[], include: (i: number) => boolean): Joined {
  const starts: number[] = new Array<number>(texts.length);
  const lengths: number[] = new Array<number>(texts.length);
  const parts: string[] = new Array<string>(texts.length);
  let pos = 0;
  for (let i = 0; i < texts.length; i++) {
    const t = include(i) ? texts[i]! : '';
    parts[i] = t;
    starts[i] = pos;
    lengths[i] = t.length;
    pos += t.length + 1;
  }
  return { joined: parts.join(SEP), starts, lengths };
}

/**
 * Layer 1 over the joined buffer: finds every occurrence of every variant, merges overlapping ones
 * and rewrites the affected slots. Flat arrays and one pass over the sorted spans keep this linear
 * even with hundreds of thousands of hits (a short secret in a long run of the same characters).
 */
function redactExact(texts: string[], all: Joined, variants: readonly string[], weights?: number[]): number {
  const { joined, starts: segStarts, lengths } = all;
  const starts: number[] = [];
  const ends: number[] = [];
  let variantsHit = 0;
  for (const v of variants) {
    const before = starts.length;
    for (let i = joined.indexOf(v); i >= 0; i = joined.indexOf(v, i + v.length)) {
      starts.push(i);
      ends.push(i + v.length);
    }
    if (starts.length > before) variantsHit++;
  }
  if (starts.length === 0) return 0;
  let order: number[] | null = null;
  if (variantsHit > 1) {
    order = starts.map((_, k) => k);
    order.sort((a, b) => starts[a]! - starts[b]! || ends[b]! - ends[a]!);
  }
  let count = 0;
  let seg = 0;
  let parts: string[] = [];
  let partsSeg = -1;
  let pos = 0; // position inside the current segment's text already copied
  const finishSegment = (): void => {
    if (partsSeg < 0) return;
    parts.push(texts[partsSeg]!.slice(pos));
    texts[partsSeg] = parts.join('');
    parts = [];
    partsSeg = -1;
  };
  const emit = (s: number, e: number): void => {
    while (seg + 1 < segStarts.length && segStarts[seg + 1]! <= s) seg++;
    const base = segStarts[seg]!;
    if (e > base + lengths[seg]!) return; // crosses a slot boundary: not a real occurrence
    if (partsSeg !== seg) {
      finishSegment();
      partsSeg = seg;
      pos = 0;
    }
    parts.push(texts[seg]!.slice(pos, s - base), REDACTED);
    pos = e - base;
    count += weights ? weights[seg]! : 1; // a slot can stand for several equal strings
  };
  let cs = -1;
  let ce = -1;
  for (let j = 0; j < starts.length; j++) {
    const k = order ? order[j]! : j;
    const s = starts[k]!;
    const e = ends[k]!;
    if (s < ce) {
      if (e > ce) ce = e;
      continue;
    }
    if (cs >= 0) emit(cs, ce);
    cs = s;
    ce = e;
  }
  emit(cs, ce);
  finishSegment();
  return count;
}

function applySpans(text: string, spans: Array<Span & { replacement: string }>): string {
  let out = '';
  let pos = 0;
  for (const s of spans) {
    out += text.slice(pos, s.start) + s.replacement;
    pos = s.end;
  }
  return out + text.slice(pos);
}

const AUTH_SCHEME_RE = /^\s{0,4}(?:bearer|token|basic|digest|bot)\s{1,4}/i;

/** Core of scrubResult/scrubText over a gathered set of slots; rewrites `texts` in place. */
function scrubSlots(
  texts: string[],
  flags: number[],
  ctx: ScrubContext,
  jsonText: boolean,
  prejoined?: Joined,
): { redactions: number; masks: number; kinds: Set<string> } {
  let redactions = 0;
  let masks = 0;
  const kinds = new Set<string>();

  // Layer 1: exact redaction, always.
  // In serialised JSON a secret appears in its escaped form only.
  const variants = secretVariants(ctx.exactSecrets ?? [], jsonText);
  let all = prejoined;
  if (variants.length > 0 && texts.length > 0) {
    all ??= join(texts, () => true);
    redactions = redactExact(texts, all, variants);
    if (redactions > 0) all = undefined; // texts changed: join again for layer 2
  }

  // Layer 2: pattern masking.
  if (ctx.mode === 'off' || ctx.skipPatterns || texts.length === 0) return { redactions, masks, kinds };
  const maskField = (i: number, kind: string, from: number): void => {
    const t = texts[i]!;
    const secret = t.slice(from);
    kinds.add(kind);
    masks++;
    texts[i] = t.slice(0, from) + formatMask(kind, secret, 0);
  };
  for (let i = 0; i < texts.length; i++) {
    const f = flags[i]!;
    if (f & F_FIELD) {
      if (texts[i]!.length >= 6 && acceptAssignedValue(texts[i]!, true)) maskField(i, 'secret-assignment', 0);
    } else if (f & F_AUTH_FIELD) {
      const m = AUTH_SCHEME_RE.exec(texts[i]!);
      const from = m ? m[0].length : 0;
      if (texts[i]!.length - from >= 6 && acceptAssignedValue(texts[i]!.slice(from), true))
        maskField(i, 'authorization-header', from);
    }
  }
  const scanAll = flags.every((f) => (f & (F_EXACT_ONLY | F_FIELD | F_AUTH_FIELD)) === 0);
  const { joined, starts, lengths } =
    scanAll && all !== undefined
      ? all
      : join(texts, (i) => (flags[i]! & (F_EXACT_ONLY | F_FIELD | F_AUTH_FIELD)) === 0);
  const matches = scanText(joined);
  for (const [seg, list] of bySlot<PatternMatch>(matches, starts, lengths)) {
    const t = texts[seg]!;
    masks += list.length;
    for (const m of list) kinds.add(m.kind);
    texts[seg] = applySpans(
      t,
      list.map((m) => ({ ...m, replacement: formatMask(m.kind, t.slice(m.start, m.end), m.reveal) })),
    );
  }
  return { redactions, masks, kinds };
}

export function scrubResult(value: unknown, ctx: ScrubContext): ScrubResult {
  if (typeof value === 'string') return scrubText(value, ctx);
  const r =
    value !== null && typeof value === 'object'
      ? (scrubStrings(value as object, ctx) ?? scrubChunked(value as object, ctx))
      : walkScrub(value, ctx);
  const blocked = blockedFrom(ctx, r);
  const out: ScrubResult = {
    value: r.value,
    redactions: r.redactions,
    masks: r.masks,
    blocked,
  };
  if (r.json !== undefined) out.json = r.json;
  return out;
}

// Names whose values the twelfth pass's keyword rules read (keyword-rules.ts): recovery codes, wallet
// mnemonics, peppers, pre-shared keys, SNMP communities, WIF keys. A key or a variable so named is
// scanned as `"name":"value"`, as the same JSON read as text is.
const NAMES_KEYING_TWELFTH =
  /(?:recovery|backup)[_-]?codes|mnemonic|seed[_-]?phrase|pepper|community|(?:^|[_-])(?:psk|psw|pword|wif)$/i;

// Keys seen in results are few and repeat in every item: whether one can start an assignment
// (`"password":"..."`) is remembered. Bounded, so odd inputs cannot grow it without limit.
const keyTrigger = new Map<string, boolean>();
function triggers(key: string): boolean {
  let t = keyTrigger.get(key);
  if (t === undefined) {
    if (keyTrigger.size > 4096) keyTrigger.clear();
    // namesSecret: camelCase names such as `authKey`, `signingKey`, `masterKey` (a JSON file parsed as
    // a body), which the keyword regex reads only after `_`, `-` or `.`; their text form is masked.
    t = keyStartsAssignment(key) || namesProvider(key) || namesSecret(key) || NAMES_KEYING_TWELFTH.test(key);
    keyTrigger.set(key, t);
  }
  return t;
}

/**
 * The `"key":` prefix for the string items of an array under `key` when the key, or its singular
 * (`api_keys`, `signingKeys`, `tokens`), names secrets; else ''.
 */
function listPair(key: string): string {
  let name = triggers(key) ? key : null;
  if (name === null && key.length > 1 && (key.endsWith('s') || key.endsWith('S'))) {
    const one = key.slice(0, -1);
    if (triggers(one)) name = one;
  }
  return name === null ? '' : JSON.stringify(name) + ':';
}

// The armour line of a private key written alone in an array item (a JSON array of lines).
const PEM_ITEM_BEGIN_RE = /^\s{0,8}-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----\s{0,4}$/;
const PEM_ITEM_BODY_RE = /^\s{0,8}[A-Za-z0-9+/=]{16,100}\s{0,4}$/;
const PEM_ITEM_HEADER_RE = /^\s{0,8}(?:[A-Za-z-]{2,30}: [^\n]{0,200}|)\s{0,4}$/;

/**
 * The indexes of the body lines of each private key written one line per item in `v` (the items
 * after a BEGIN armour line up to the END line, header lines such as `Proc-Type:` and blank lines
 * skipped); null when there is none. Only arrays with an item ending in `PRIVATE KEY-----` are read.
 */
function pemBodyItems(v: unknown[], from = 0): Set<number> | null {
  let out: Set<number> | null = null;
  for (let i = from; i < v.length; i++) {
    const x = v[i];
    if (
      typeof x !== 'string' ||
      x.length > 80 ||
      !x.includes('PRIVATE KEY-----') ||
      !PEM_ITEM_BEGIN_RE.test(x)
    )
      continue;
    const body: number[] = [];
    let j = i + 1;
    for (; j < v.length; j++) {
      const y = v[j];
      if (typeof y !== 'string') break;
      if (PEM_ITEM_BODY_RE.test(y)) body.push(j);
      else if (!PEM_ITEM_HEADER_RE.test(y)) break;
    }
    const end = v[j];
    if (typeof end === 'string' && end.includes('-----END ') && end.includes('PRIVATE KEY')) {
      out ??= new Set<number>();
      for (const b of body) out.add(b);
    }
    i = j;
  }
  return out;
}

/** The `name` (or `key`) of an object that also has `data` or `value`, when it names a secret. */
function siblingName(o: Record<string, unknown>): string | null {
  if (typeof o.data !== 'string' && typeof o.value !== 'string') return null;
  const n = typeof o.name === 'string' ? o.name : typeof o.key === 'string' ? o.key : null;
  if (n === null) return null;
  if (namesSecret(n) || namesProvider(n) || NAMES_KEYING_TWELFTH.test(n)) return n;
  // keying material the rules do not read by its word: scanned as that name's secret
  return namesSecretVariable(n) ? (namesKeying(n) ? `${n}_SECRET` : n) : null;
}

// Shortest string any pattern can match (a URL with a one-character password: `a://:pq@`).
const MIN_PATTERN_TEXT = 8;
// Strings up to this length are scanned once however often they occur (hashing them is cheap).
const MAX_DEDUP_LENGTH = 256;
// Slots scanned together (characters); see scrubStrings.
const BATCH_CHARS = 1 << 20;
// Key lists remembered per call (see shapeOf).
const MAX_SHAPES = 16;
// Nesting deeper than this (or a cycle) is left to the other paths.
const MAX_WALK_DEPTH = 10_000;

/**
 * Fast path for objects and arrays: visits the strings in place instead of serialising the result.
 * Only strings long enough to hold a secret are gathered (each distinct key once), joined with NUL
 * and scanned in one pass per layer; the changed strings are then written into copies of their
 * containers up to the root (copy on write), so an unchanged result comes back as the same object.
 * A value whose key can start an assignment is scanned as `"key":"value"` in its JSON form, exactly
 * as in the serialised text, so both paths mask the same things.
 * Returns null when the result needs the other paths: base64 content (decoded by the walk), an
 * exact secret shorter than 4 characters, a changed object key, nesting deeper than MAX_WALK_DEPTH.
 */
function scrubStrings(root: object, ctx: ScrubContext): Scrubbed | null {
  const secrets = ctx.exactSecrets ?? [];
  for (const x of secrets) if (typeof x === 'string' && x.length > 0 && x.length < 4) return null;
  const variants = secretVariants(secrets, false);
  const patterns = ctx.mode !== 'off' && !ctx.skipPatterns;
  let minLen = patterns ? MIN_PATTERN_TEXT : Infinity;
  for (const v of variants) if (v.length < minLen) minLen = v.length;
  const kinds = new Set<string>();
  if (minLen === Infinity) return { value: root, redactions: 0, masks: 0, kinds };

  // Containers (objects and arrays) with their parent and key, for the copy on write.
  const conts: object[] = [root];
  const contParent: number[] = [-1];
  const contKey: Array<string | number> = [0];
  const contDepth: number[] = [0];
  // The `"key":` prefix the string items of an array get when the array's key names secrets
  // (`"api_keys": [...]`, `"signingKeys": [...]`): each item is scanned as that key's value.
  const contPair: string[] = [''];
  // Slots holding the body lines of a private key written one line per array item (masked whole).
  const pemSlots: number[] = [];
  // Slots: gathered strings. slotCont -1 marks an object key; slotPair the `"key":` prefix of a value
  // scanned as a pair (else '').
  const texts: string[] = [];
  const slotCont: number[] = [];
  const slotKey: Array<string | number> = [];
  const slotPair: string[] = [];
  // Equal short strings (logins, e-mails, avatar and repository URLs, dates, labels repeat in every
  // item of a list) are scanned once: the slot's weight counts them, `more*` lists the other places.
  const weights: number[] = [];
  const seen = new Map<string, number>();
  const moreSlot: number[] = [];
  const moreCont: number[] = [];
  const moreKey: Array<string | number> = [];
  const addValue = (x: string, c: number, key: string | number): void => {
    if (x.length <= MAX_DEDUP_LENGTH) {
      const slot = seen.get(x);
      if (slot !== undefined) {
        weights[slot]!++;
        moreSlot.push(slot);
        moreCont.push(c);
        moreKey.push(key);
        return;
      }
      seen.set(x, texts.length);
    }
    texts.push(x);
    slotCont.push(c);
    slotKey.push(key);
    slotPair.push('');
    weights.push(1);
  };
  // Items of a list share their keys: an object whose key list equals a recent one (same strings,
  // same order) reuses what was worked out for it, instead of looking up every key again.
  const keysSeen = new Set<string>();
  const shapes: Array<{ keys: string[]; pair: boolean[] }> = [];
  const shapeOf = (keys: string[]): boolean[] | null => {
    next: for (const shape of shapes) {
      if (shape.keys.length !== keys.length) continue;
      for (let i = 0; i < keys.length; i++) if (shape.keys[i] !== keys[i]) continue next;
      return shape.pair;
    }
    const pair = new Array<boolean>(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      if (!keysSeen.has(k)) {
        keysSeen.add(k);
        if (k === 'content_base64') return null;
        if (k.length >= minLen) {
          texts.push(k);
          slotCont.push(-1);
          slotKey.push(k);
          slotPair.push('');
          weights.push(1);
        }
      }
      pair[i] = patterns && triggers(k);
    }
    if (shapes.length < MAX_SHAPES) shapes.push({ keys, pair });
    return pair;
  };
  const stack: number[] = [0];
  while (stack.length > 0) {
    const c = stack.pop()!;
    const v = conts[c]!;
    const depth = contDepth[c]! + 1;
    if (Array.isArray(v)) {
      const pre = contPair[c]!;
      // The key's lines are looked for only from an item holding the armour on (body items come
      // after it, so the items before are never body lines): most arrays have none.
      // Read once per array at most (a second armour item must not read the rest again).
      let pem: Set<number> | null = null;
      let pemRead = !patterns;
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (typeof x === 'string') {
          if (!pemRead && x.length <= 80 && x.includes('PRIVATE KEY-----')) {
            pemRead = true;
            pem = pemBodyItems(v, i);
          }
          const inPem = pem !== null && pem.has(i);
          if (inPem || pre !== '') {
            if (inPem) pemSlots.push(texts.length);
            texts.push(x);
            slotCont.push(c);
            slotKey.push(i);
            slotPair.push(inPem ? '' : pre);
            weights.push(1);
          } else if (x.length >= minLen) addValue(x, c, i);
        } else if (x !== null && typeof x === 'object') {
          if (depth > MAX_WALK_DEPTH) return null;
          stack.push(conts.push(x) - 1);
          contParent.push(c);
          contKey.push(i);
          contDepth.push(depth);
          contPair.push('');
        }
      }
      continue;
    }
    const o = v as Record<string, unknown>;
    if (o.encoding === 'base64' && typeof o.content === 'string') return null;
    const keys = Object.keys(o);
    const pair = shapeOf(keys);
    if (pair === null) return null;
    // A name/value pair whose name says secret (an Actions variable {name, data}, an env entry
    // {name, value}, a Kubernetes-like {key, value}): the value is scanned as `"NAME":"value"`.
    const sibling = patterns ? siblingName(o) : null;
    // The values in the order of the keys (one native call instead of a keyed load per key, which is
    // megamorphic across the result's many object shapes).
    const vals = Object.values(o);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const x = vals[i];
      if (typeof x === 'string') {
        const named = sibling !== null && (k === 'data' || k === 'value');
        if (pair[i] || named) {
          texts.push(x);
          slotCont.push(c);
          slotKey.push(k);
          slotPair.push(JSON.stringify(named ? sibling : k) + ':');
          weights.push(1);
        } else if (x.length >= minLen) addValue(x, c, k);
      } else if (x !== null && typeof x === 'object') {
        if (depth > MAX_WALK_DEPTH) return null;
        stack.push(conts.push(x) - 1);
        contParent.push(c);
        contKey.push(k);
        contDepth.push(depth);
        contPair.push(patterns && Array.isArray(x) ? listPair(k) : '');
      }
    }
  }
  if (texts.length === 0) return { value: root, redactions: 0, masks: 0, kinds };

  const original = texts.slice();
  // 1 where scrubBatch changed a slot's string (so the copy on write below compares no strings).
  const changed = new Uint8Array(texts.length);
  let redactions = 0;
  let masks = 0;
  // Large results are scanned in batches of about BATCH_CHARS: the buffers stay cache and GC
  // friendly, and the cost per megabyte stays that of a 1 MB result.
  for (let b0 = 0; b0 < texts.length;) {
    let b1 = b0;
    for (let size = 0; b1 < texts.length && (b1 === b0 || size < BATCH_CHARS); b1++)
      size += texts[b1]!.length + 3;
    const r = scrubBatch(
      texts,
      original,
      changed,
      b0,
      b1,
      slotPair,
      slotCont,
      weights,
      variants,
      patterns,
      kinds,
    );
    if (r === null) return null;
    redactions += r.redactions;
    masks += r.masks;
    b0 = b1;
  }
  // The body lines of a key written one line per item: no pattern sees the armour beside them.
  for (const i of pemSlots) {
    if (changed[i] === 1) continue;
    texts[i] = formatMask('private-key', texts[i]!, 0);
    changed[i] = 1;
    masks++;
    kinds.add('private-key');
  }
  if (redactions === 0 && masks === 0) return { value: root, redactions, masks, kinds };

  // Copy on write: each changed string goes into a copy of its container, and so on up to the root.
  const copies = new Map<number, Record<string | number, unknown>>();
  const copyOf = (c: number): Record<string | number, unknown> => {
    let copy = copies.get(c);
    if (copy === undefined) {
      const v = conts[c]!;
      copy = (Array.isArray(v) ? v.slice() : { ...v }) as Record<string | number, unknown>;
      copies.set(c, copy);
      if (contParent[c]! >= 0) copyOf(contParent[c]!)[contKey[c]!] = copy;
    }
    return copy;
  };
  for (let i = 0; i < texts.length; i++) {
    if (changed[i] === 1) copyOf(slotCont[i]!)[slotKey[i]!] = texts[i];
  }
  for (let j = 0; j < moreSlot.length; j++) {
    const i = moreSlot[j]!;
    if (changed[i] === 1) copyOf(moreCont[j]!)[moreKey[j]!] = texts[i];
  }
  return { value: copies.get(0) ?? root, redactions, masks, kinds };
}

/**
 * Both layers over the slots [b0, b1) of the string walk, in place; null when the walk must give up
 * (a changed key, an edited escaped string that no longer parses).
 */
function scrubBatch(
  all: string[],
  original: string[],
  changed: Uint8Array,
  b0: number,
  b1: number,
  slotPair: string[],
  slotCont: number[],
  allWeights: number[],
  variants: readonly string[],
  patterns: boolean,
  kinds: Set<string>,
): { redactions: number; masks: number } | null {
  // A single batch (any result up to about 1 MB) works on the arrays themselves: no copies.
  const whole = b0 === 0 && b1 === all.length;
  const texts = whole ? all : all.slice(b0, b1);
  const weights = whole ? allWeights : allWeights.slice(b0, b1);
  const n = texts.length;
  let pairs = 0;
  for (let i = b0; i < b1; i++) if (slotPair[i] !== '') pairs++;
  // One buffer for both layers: every string between quotes, as in JSON text (so a quote opened in a
  // string is closed by the string's end, exactly as the serialised text reads), NUL between them;
  // a pair slot is preceded by its `"key":` and is in its JSON-escaped form.
  const escaped: Array<string | undefined> = new Array<string | undefined>(n);
  const buffer = (): Joined => {
    const starts = new Array<number>(n);
    const lengths = new Array<number>(n);
    if (pairs === 0) {
      // '"' + join('"\0"') + '"' is one native join instead of a concatenation per string.
      let pos = 1;
      for (let i = 0; i < n; i++) {
        starts[i] = pos;
        lengths[i] = texts[i]!.length;
        pos += lengths[i]! + 3;
      }
      // The outer quotes go into the first and last parts: a '"' + ... + '"' around the joined text
      // would be a rope that V8 copies flat again on the first search.
      const parts = texts.slice();
      parts[0] = `"${parts[0]!}`;
      parts[n - 1] = `${parts[n - 1]!}"`;
      return { joined: parts.join('"\u0000"'), starts, lengths };
    }
    const parts = new Array<string>(n);
    let pos = 0;
    for (let i = 0; i < n; i++) {
      const pre = slotPair[b0 + i]!;
      let t = texts[i]!;
      if (pre !== '') {
        t = JSON.stringify(t).slice(1, -1);
        escaped[i] = t;
      }
      parts[i] = pre + '"' + t + '"';
      starts[i] = pos + pre.length + 1;
      lengths[i] = t.length;
      pos += parts[i]!.length + 1;
    }
    return { joined: parts.join(SEP), starts, lengths };
  };
  let redactions = 0;
  let joined: Joined | undefined;
  // Layer 1: exact redaction, always (on the raw strings: pair slots are escaped only for layer 2).
  if (variants.length > 0) {
    joined = pairs === 0 ? buffer() : join(texts, () => true);
    redactions = redactExact(texts, joined, variants, weights);
    if (redactions > 0) {
      for (let i = 0; i < n; i++) if (slotCont[b0 + i] === -1 && texts[i] !== original[b0 + i]) return null;
      joined = undefined;
    }
  }
  // Layer 2: pattern masking, one scan over the batch.
  let masks = 0;
  const maskedSegs: number[] = [];
  if (patterns) {
    if (pairs > 0 || joined === undefined) joined = buffer();
    const matches = scanText(joined.joined);
    for (const [seg, list] of bySlot<PatternMatch>(matches, joined.starts, joined.lengths, true)) {
      if (slotCont[b0 + seg] === -1) return null; // a masked key: the other paths keep colliding keys apart
      maskedSegs.push(seg);
      const t = escaped[seg] ?? texts[seg]!;
      masks += list.length * weights[seg]!;
      for (const m of list) kinds.add(m.kind);
      const out = applySpans(
        t,
        list.map((m) => ({ ...m, replacement: formatMask(m.kind, t.slice(m.start, m.end), m.reveal) })),
      );
      if (escaped[seg] === undefined) texts[seg] = out;
      else {
        try {
          texts[seg] = JSON.parse(`"${out}"`) as string;
        } catch {
          return null;
        }
      }
    }
  }
  if (!whole) for (let i = 0; i < n; i++) all[b0 + i] = texts[i]!;
  // Which slots changed: after an exact redaction any slot of the batch may have; else only masked ones.
  if (redactions > 0) {
    for (let i = b0; i < b1; i++) if (all[i] !== original[i]) changed[i] = 1;
  } else for (const seg of maskedSegs) if (all[b0 + seg] !== original[b0 + seg]) changed[b0 + seg] = 1;
  return { redactions, masks };
}

type Scrubbed = {
  value: unknown;
  redactions: number;
  masks: number;
  kinds: Set<string>;
  json?: string;
  /** Verdicts on the opaque base64 contents met by the walk. */
  verdicts?: OpaqueVerdict[];
};

const blockedOf = (ctx: ScrubContext, kinds: Set<string>): ScrubResult['blocked'] =>
  ctx.mode === 'block' && kinds.size > 0 ? { kinds: [...kinds].sort() } : null;

/** Adds the opaque verdicts to the counts; any finding or unread part in one withholds the result. */
function blockedFrom(ctx: ScrubContext, r: Scrubbed): ScrubResult['blocked'] {
  const reasons: string[] = [];
  const kinds = new Set(r.kinds);
  for (const v of r.verdicts ?? []) {
    r.redactions += v.redactions;
    r.masks += v.masks;
    for (const k of v.kinds) kinds.add(k);
    if (v.reasons.length > 0) reasons.push(...v.reasons);
    else if (v.redactions + v.masks > 0)
      reasons.push('secrets inside binary content, which cannot be rewritten in place');
  }
  if (reasons.length === 0) return blockedOf(ctx, r.kinds);
  return { kinds: [...kinds].sort(), reason: [...new Set(reasons)].slice(0, 6).join('; ') };
}

// One cheap literal test first: almost no result mentions base64 at all.
const needsWalk = (json: string): boolean =>
  /base64/.test(json) && (json.includes('"content_base64":') || json.includes('"encoding":"base64"'));

// Serialising path: each top-level element (array item, or object entry) is serialised
// natively and all of them are scanned together as JSON text; only the elements that changed are
// parsed back. Keys and values are both strings in that text, and no pattern crosses a string's
// closing quote. An element holding base64 content (decoded by the walk), one that cannot be
// serialised, or one whose edited text no longer parses (an exact secret matched JSON syntax) goes
// through the walk instead.
function scrubChunked(value: object, ctx: ScrubContext): Scrubbed {
  // Very short secrets would also hit JSON syntax and common keys: the walk handles keys exactly.
  if ((ctx.exactSecrets ?? []).some((x) => typeof x === 'string' && x.length > 0 && x.length < 4))
    return walkScrub(value, ctx);
  // Whole result at once when it holds no base64 content: one native serialisation, and a parse
  // back only when something was redacted or masked.
  let whole: string | undefined;
  try {
    whole = JSON.stringify(value);
  } catch {
    whole = undefined;
  }
  if (whole !== undefined && !needsWalk(whole)) {
    const texts = [whole];
    const r = scrubSlots(texts, [0], ctx, true);
    if (r.redactions === 0 && r.masks === 0) return { value, ...r, json: whole };
    try {
      return { value: JSON.parse(texts[0]!), ...r, json: texts[0]! };
    } catch {
      // an exact secret matched JSON syntax somewhere: go element by element
    }
  }
  const isArray = Array.isArray(value);
  // The object itself is a base64 container (contents, blob, wiki page, binary envelope).
  if (!isArray && ((value as Record<string, unknown>).encoding === 'base64' || 'content_base64' in value))
    return walkScrub(value, ctx);
  const entries: Array<[string, unknown]> = isArray
    ? (value as unknown[]).map((v, i) => [String(i), v])
    : Object.entries(value);
  const wrap = (k: string, v: unknown): unknown => (isArray ? v : { [k]: v });
  const texts: string[] = [];
  const slotOf: number[] = new Array<number>(entries.length).fill(-1);
  const walkIdx: number[] = [];
  for (let i = 0; i < entries.length; i++) {
    const [k, v] = entries[i]!;
    let json: string | undefined;
    try {
      json = JSON.stringify(wrap(k, v));
    } catch {
      walkIdx.push(i); // cycles, BigInt, or nesting too deep for the native serialiser
      continue;
    }
    if (json !== undefined) slotOf[i] = texts.push(json) - 1;
  }
  let prejoined = join(texts, () => true);
  if (needsWalk(prejoined.joined)) {
    // Rare: some element holds base64 content; move those elements to the walk.
    for (let i = 0; i < entries.length; i++) {
      const slot = slotOf[i]!;
      if (slot >= 0 && needsWalk(texts[slot]!)) {
        walkIdx.push(i);
        slotOf[i] = -1;
        texts[slot] = '';
      }
    }
    prejoined = join(texts, () => true);
  }
  const original = texts.slice();
  const r = scrubSlots(texts, new Array<number>(texts.length).fill(0), ctx, true, prejoined);
  const replaced = new Map<number, unknown>();
  for (let i = 0; i < entries.length; i++) {
    const slot = slotOf[i]!;
    if (slot < 0 || texts[slot] === original[slot]) continue;
    try {
      replaced.set(i, JSON.parse(texts[slot]!));
    } catch {
      walkIdx.push(i);
    }
  }
  for (const i of walkIdx) {
    const [k, v] = entries[i]!;
    const w = walkScrub(wrap(k, v), ctx);
    if (w.verdicts?.length) (r as Scrubbed).verdicts = [...((r as Scrubbed).verdicts ?? []), ...w.verdicts];
    r.redactions += w.redactions;
    r.masks += w.masks;
    for (const kind of w.kinds) r.kinds.add(kind);
    replaced.set(i, w.value);
  }
  if (r.redactions === 0 && r.masks === 0) return { value, ...r };
  if (isArray) {
    const out = (value as unknown[]).slice();
    for (const [i, v] of replaced) out[i] = v;
    return { value: out, ...r };
  }
  const out: Record<string, unknown> = {};
  for (let i = 0; i < entries.length; i++) {
    const [k, v] = entries[i]!;
    if (!replaced.has(i)) {
      out[k] = v;
      continue;
    }
    for (const [k2, v2] of Object.entries(replaced.get(i) as Record<string, unknown>)) {
      let key = k2;
      for (let c = 2; Object.prototype.hasOwnProperty.call(out, key); c++) key = `${k2}#${c}`;
      out[key] = v2;
    }
  }
  return { value: out, ...r };
}

function walkScrub(value: unknown, ctx: ScrubContext): Scrubbed {
  const c = new Collector(ctx);
  const root = c.build(value);
  const texts = c.texts.slice();
  const { redactions, masks, kinds } = scrubSlots(texts, c.flags, ctx, false);
  const changed = redactions > 0 || masks > 0;
  const out: Scrubbed = { value: changed ? c.rebuild(root, texts) : value, redactions, masks, kinds };
  if (c.verdicts.length > 0) out.verdicts = c.verdicts;
  return out;
}

/**
 * Entry for a JSON body that has not been parsed yet (Gitea's response text): parses it and scrubs
 * the value, so the result is exactly scrubResult(JSON.parse(json), ctx) (escaped forms of a secret
 * in the text, such as Go's \u003c, are plain characters once parsed). Throws what JSON.parse throws.
 */
export function scrubJsonText(json: string, ctx: ScrubContext): ScrubResult {
  const r = scrubResult(JSON.parse(json), ctx);
  delete r.json;
  return r;
}

/**
 * The serialising path (serialise, scan the JSON text, parse back what changed) that scrubResult
 * used for every object before the string walk, and still uses when the walk declines. For tests
 * that compare the two.
 */
export function scrubSerialised(value: object, ctx: ScrubContext): ScrubResult {
  const r = scrubChunked(value, ctx);
  const blocked = blockedFrom(ctx, r);
  return { value: r.value, redactions: r.redactions, masks: r.masks, blocked };
}

export function scrubText(text: string, ctx: ScrubContext): ScrubResult<string> {
  const texts = [text];
  const { redactions, masks, kinds } = scrubSlots(texts, [0], ctx, false);
  return { value: texts[0]!, redactions, masks, blocked: blockedOf(ctx, kinds) };
}
