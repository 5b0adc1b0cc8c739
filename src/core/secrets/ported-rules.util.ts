// gitleaks' default rules (gitleaks-rules.generated.ts, MIT, see NOTICE) run the way gitleaks runs
// them, a rule only where one of its keywords occurs, but without a full-text pass per rule:
// 1. one pass of a case-insensitive Aho-Corasick automaton over the text finds every keyword;
// 2. each hit tries only the rules of that keyword, and only near it:
//    - 'prefix' rules (the pattern starts with a literal the keyword begins): a sticky match at the hit;
//    - 'assign' rules (gitleaks' `name = value` pattern): only when an assignment operator follows the
//      keyword within gitleaks' own bounds, then a sticky match from the keyword on;
//    - 'window' rules: on a window around the hit (windows of one rule are merged).
// A match is kept when its secret passes the rule's entropy threshold, gitleaks' global and per-rule
// allowlists (regexes on the secret, the match or the line; stopwords), and the engine's own
// placeholder check. Work per hit is bounded by the window, so the scan stays linear in the text.
import {
  GITLEAKS_GLOBAL_ALLOW,
  GITLEAKS_RULES,
  type PortedAllowlist,
  type PortedRuleSource,
} from './gitleaks-rules.generated';
import { createByteSkip, type ByteSkip } from './byte-skip.util';
import { KEYWORD_RULES, PROVIDER_NAME_WORDS, WORDS_VALUE, type RuleNeeds } from './keyword-rules';
import { randomLetters, type PatternMatch } from './pattern-rules.util';
import { isPlaceholder } from './placeholder.util';

type Allow = {
  target: PortedAllowlist['target'];
  and: boolean;
  regexes: Array<{ test(s: string): boolean }>;
  stopwords: string[];
};

type Rule = {
  id: string;
  kind: string;
  find: PortedRuleSource['find'];
  sticky: RegExp;
  global: RegExp;
  group: number;
  entropy: number;
  allow: Allow[];
  /** 'assign' rules: the provider name, then the value within 40 characters (prose); null: none */
  near: RegExp | null;
  /** the provider's keys are UUIDs (Heroku, Snyk ...): a UUID found near its name is a key, not an id */
  nearUuid: boolean;
  /** the pattern's groups are markers, the secret is the whole match */
  wholeMatch: boolean;
  /** a whole block (a private key in armour): no placeholder check, its quote markers are text */
  block: boolean;
  /** scan state, reset per text: where the pending window of this rule starts and ends (-1: none) */
  ws: number;
  we: number;
  /** prefix rules: no new match may start before this (the end of the last one) */
  next: number;
  /** prefix rules: a necessary condition checked before the regex runs (keyword-rules.ts), or null */
  needs: RuleNeeds | null;
};

// Characters a window before a keyword may span, and after it. gitleaks' semi-generic pattern
// allows 50 identifier characters before the keyword; values of the rules are at most a few
// hundred characters (longer ones are extended to the next delimiter, see extendEnd).
const WINDOW_BEFORE = 320;
const WINDOW_AFTER = 1280;
const MAX_EXTEND = 8192;
/** Mask kinds are at most 40 characters (mask-format.util.ts). */
const kindOf = (id: string): string => id.slice(0, 40).replace(/-$/, '');

const compileAllow = (a: PortedAllowlist): Allow => ({
  target: a.target,
  and: a.and,
  regexes: a.regexes.map((r) => (r === WORDS_VALUE ? WORDS_NOT_DRAWN : new RegExp(r))),
  stopwords: a.stopwords,
});
// A value of words is allowed (not a secret); letters drawn at random from both cases are not words.
const WORDS_RE = new RegExp(WORDS_VALUE);
const WORDS_NOT_DRAWN = { test: (s: string): boolean => WORDS_RE.test(s) && !randomLetters(s) };

// gitleaks' semi-generic pattern starts with up to 50 identifier characters before the keyword; they
// only widen the match to the left (never the secret), so the engine matches from the keyword on.
const IDENT_PREFIX = '[\\w.\\-]{0,50}?';
// Some of gitleaks' rules (cisco-meraki, cohere, okta, privateai, sumologic) nest that prefix in a
// second one: `[\w.\-]{0,50}?(?:[\w.\-]{0,50}?KEYWORD...`. V8's backtracking tries the 51 x 51 splits
// of a word run at every position of a window (about 3 s of CPU for 32 K of word characters with
// the keyword every 2,000), where RE2 in gitleaks is linear. One lazy `{0,100}?` matches the same:
// the nested pair's first success is at the smallest total length (a split only adds lengths the
// pair already tried, and what follows depends only on where it starts; no backreferences), and
// the groups are unchanged.
const NESTED_IDENT_PREFIX = IDENT_PREFIX + '(?:' + IDENT_PREFIX;
const flatPrefix = (re: string): string =>
  re.startsWith(NESTED_IDENT_PREFIX) ? '(?:[\\w.\\-]{0,100}?' + re.slice(NESTED_IDENT_PREFIX.length) : re;

// gitleaks' rules end a secret at a delimiter or at the end of the text (`|$)`). The engine joins
// the strings it scans with NUL (scrub.util.ts), and in the full walk (base64 file contents, wiki
// pages) a string is not quoted: a NUL ends the string as `$` ends the text, so it ends a secret too
// (a key on the last line of a decoded file was missed); likewise a NUL starts one where `^` does.
const endAtNul = (re: string): string =>
  re.replaceAll('|$)', '|$|\\u0000)').replaceAll('(?:^|[', '(?:^|\\u0000|[');

// gitleaks' rules, then the engine's own keyword rules (keyword-rules.ts) in the same shape.
const RULE_SOURCES: Array<PortedRuleSource & { kind?: string; block?: boolean; needs?: RuleNeeds }> = [
  ...GITLEAKS_RULES.map((r) => ({ ...r, regex: endAtNul(r.regex), near: endAtNul(r.near) })),
  ...KEYWORD_RULES,
];

export const PORTED_RULES: Rule[] = RULE_SOURCES.map((r) => ({
  id: r.id,
  kind: r.kind ?? kindOf(r.id),
  find: r.find,
  sticky: new RegExp(
    r.find === 'assign' && r.regex.startsWith(IDENT_PREFIX) ? r.regex.slice(IDENT_PREFIX.length) : r.regex,
    'dy',
  ),
  global: new RegExp(flatPrefix(r.regex), 'dg'),
  near: r.near
    ? new RegExp(r.near.startsWith(IDENT_PREFIX) ? r.near.slice(IDENT_PREFIX.length) : r.near, 'dy')
    : null,
  nearUuid: /\{8\}-\[0-9a-fA-F\]\{4\}/.test(r.near),
  group: r.group,
  wholeMatch: /\(\?<[A-Za-z]/.test(r.regex),
  block: r.block === true,
  entropy: r.entropy,
  allow: r.allow.map(compileAllow),
  ws: -1,
  we: -1,
  next: 0,
  needs: r.find === 'prefix' && r.needs ? r.needs : null,
}));

const GLOBAL_ALLOW: Allow = {
  target: 'secret',
  and: false,
  regexes: GITLEAKS_GLOBAL_ALLOW.regexes.map((r) => new RegExp(r)),
  stopwords: [...GITLEAKS_GLOBAL_ALLOW.stopwords],
};

// ---- Aho-Corasick over the keywords, ASCII case-insensitive -------------------------------------
const KEYWORDS: string[] = [];
const RULES_OF: Rule[][] = [];
{
  const index = new Map<string, number>();
  for (const rule of PORTED_RULES) {
    for (const k of RULE_SOURCES.find((r) => r.id === rule.id)!.keywords) {
      let i = index.get(k);
      if (i === undefined) {
        i = KEYWORDS.push(k) - 1;
        index.set(k, i);
        RULES_OF.push([]);
      }
      RULES_OF[i]!.push(rule);
    }
  }
}

/**
 * Literal anchors of the engine's own rules (pattern-scanner.util.ts) that the keyword pass finds
 * too, so those rules need no full-text search of their own: scanPortedRules records where each
 * first occurs, ASCII case-insensitively (so never after its first exact occurrence), and a rule
 * whose anchor does not occur skips its search; one that does searches from there. Only anchors
 * whose own search costs more than the pass's extra work are listed (rare-first-character anchors
 * such as '-----BEGIN ' or '$production$' are near free with indexOf).
 */
export const AUTOMATON_LITERALS = [
  'dapi',
  'glc_',
  'dp.',
  'cio',
  'cmVmdGtu',
  '/webhookb2/',
  'hooks',
  'machine',
  'requirepass',
  'masterauth',
  ' -',
  'define(',
  '"data":',
  '"value":',
  '\\"data\\":',
  '\\"value\\":',
  '::add-mask::',
  'convertto-securestring',
  'variable',
  'bearer',
] as const;
/** For each keyword of the automaton, the index in AUTOMATON_LITERALS of the literal it is, or -1. */
const LITERAL_OF: number[] = [];
{
  const index = new Map<string, number>(KEYWORDS.map((k, i) => [k, i]));
  AUTOMATON_LITERALS.forEach((lit, li) => {
    const k = lit.toLowerCase();
    let i = index.get(k);
    if (i === undefined) {
      i = KEYWORDS.push(k) - 1;
      index.set(k, i);
      RULES_OF.push([]);
    }
    LITERAL_OF[i] = li;
  });
  for (let i = 0; i < KEYWORDS.length; i++) LITERAL_OF[i] ??= -1;
}
const LITERAL_INDEX = new Map<string, number>(AUTOMATON_LITERALS.map((l, i) => [l, i]));

/**
 * Where each of AUTOMATON_LITERALS may first occur in a text, as the keyword pass found: a rule's
 * `indexOf(literal)` over the whole text starts there, or is skipped (-1: the literal is absent).
 */
export class LiteralHits {
  readonly first = new Int32Array(AUTOMATON_LITERALS.length).fill(-1);
  /**
   * text.indexOf(literal, from) of the text the pass ran over, searched from where the pass first saw
   * the literal (a literal not in AUTOMATON_LITERALS: a plain indexOf).
   */
  indexOf(text: string, literal: string, from = 0): number {
    const li = LITERAL_INDEX.get(literal);
    if (li === undefined) return text.indexOf(literal, from);
    const f = this.first[li]!;
    return f < 0 ? -1 : text.indexOf(literal, f > from ? f : from);
  }

  /**
   * Where the pass first saw a literal of AUTOMATON_LITERALS in any ASCII case (-1: nowhere), for
   * the case-insensitive searches (a search for it may start there).
   */
  firstOf(literal: (typeof AUTOMATON_LITERALS)[number]): number {
    return this.first[LITERAL_INDEX.get(literal)!]!;
  }
}
const ALPHABET = 128;
const {
  delta: DELTA,
  out: OUT,
  outList: OUT_LIST,
  classOf: CLASS,
  classes: K,
  lastDepth1: LAST_DEPTH1,
  start3: START3,
} = buildAutomaton(KEYWORDS);

/**
 * The automaton over character classes (each character of a keyword, case-folded, is a class; every
 * other character is class 0, which leads back to the root), with its states numbered in breadth-first
 * order, so the states one character deep are 1..lastDepth1. `start3[(a * classes + b) * classes + c]` is 1
 * when some keyword starts with characters of classes a, b, c, or is the two characters a, b (for any
 * c; c is 0 past the end of the text): a keyword can only start where such a triple does, and about
 * one position in twenty of a Gitea result passes (one in four passed the first-two-characters
 * table this replaced), so the automaton proper runs on few positions (see scanPortedRules).
 */
function buildAutomaton(words: string[]): {
  delta: Uint16Array;
  out: Int32Array;
  outList: number[][];
  classOf: Uint8Array;
  classes: number;
  lastDepth1: number;
  start3: Uint8Array;
} {
  const fold = (c: number): number => (c >= 65 && c <= 90 ? c + 32 : c);
  const classOf = new Uint8Array(256); // entries from ALPHABET on stay 0
  let classes = 1;
  for (const w of words) {
    if (w.length < 2) throw new Error(`keyword shorter than 2 characters: ${w}`);
    for (const ch of w) {
      const c = ch.charCodeAt(0);
      if (c >= ALPHABET) throw new Error(`non-ASCII keyword ${w}`);
      const f = fold(c);
      if (classOf[f] === 0) classOf[f] = classes++;
    }
  }
  for (let c = 65; c <= 90; c++) classOf[c] = classOf[c + 32]!;
  if (classes > 255) throw new Error('too many keyword characters');
  // The trie, then its states renumbered breadth-first.
  const goto: Array<Map<number, number>> = [new Map()];
  const words0: number[][] = [[]];
  for (let w = 0; w < words.length; w++) {
    let s = 0;
    for (const ch of words[w]!) {
      const k = classOf[ch.charCodeAt(0)]!;
      let t = goto[s]!.get(k);
      if (t === undefined) {
        t = goto.push(new Map()) - 1;
        words0.push([]);
        goto[s]!.set(k, t);
      }
      s = t;
    }
    words0[s]!.push(w);
  }
  const order: number[] = [0];
  const depth: number[] = new Array<number>(goto.length).fill(0);
  for (let q = 0; q < order.length; q++)
    for (const t of [...goto[order[q]!]!.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1])) {
      depth[t] = depth[order[q]!]! + 1;
      order.push(t);
    }
  const id = new Int32Array(goto.length);
  order.forEach((old, i) => (id[old] = i));
  const n = goto.length;
  const next: Array<Map<number, number>> = new Array<Map<number, number>>(n);
  const outs: number[][] = new Array<number[]>(n);
  let lastDepth1 = 0;
  for (let old = 0; old < n; old++) {
    const m = new Map<number, number>();
    for (const [k, t] of goto[old]!) m.set(k, id[t]!);
    next[id[old]!] = m;
    outs[id[old]!] = [...words0[old]!];
    if (depth[old] === 1 && id[old]! > lastDepth1) lastDepth1 = id[old]!;
  }
  // 16-bit states halve the table (about 190 KB), which the automaton reads at every step.
  if (n > 0xffff) throw new Error('too many automaton states');
  const delta = new Uint16Array(n * classes);
  const fail = new Int32Array(n);
  // Breadth-first, so a state's failure state is complete before it is used.
  for (let s = 0; s < n; s++) {
    if (s > 0) outs[s]!.push(...outs[fail[s]!]!);
    for (let k = 1; k < classes; k++) {
      const t = next[s]!.get(k);
      if (t !== undefined) {
        if (s > 0) fail[t] = delta[fail[s]! * classes + k]!;
        delta[s * classes + k] = t;
      } else delta[s * classes + k] = s === 0 ? 0 : delta[fail[s]! * classes + k]!;
    }
  }
  const out = new Int32Array(n);
  const outList: number[][] = [];
  for (let s = 0; s < n; s++) {
    if (outs[s]!.length > 0) out[s] = outList.push([...new Set(outs[s])]);
  }
  const start3 = new Uint8Array(classes * classes * classes);
  for (const w of words) {
    const ab = (classOf[w.charCodeAt(0)]! * classes + classOf[w.charCodeAt(1)]!) * classes;
    if (w.length === 2) start3.fill(1, ab, ab + classes);
    else start3[ab + classOf[w.charCodeAt(2)]!] = 1;
  }
  return { delta, out, outList, classOf, classes, lastDepth1, start3 };
}

// ---- matching ---------------------------------------------------------------------------------

/** gitleaks' shannonEntropy: over the characters of the secret, in bits. */
export function shannonEntropy(s: string): number {
  if (s.length === 0) return 0;
  const counts = new Map<number, number>();
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

function allowed(a: Allow, secret: string, match: string, line: () => string): boolean {
  const target = a.target === 'match' ? match : a.target === 'line' ? line() : secret;
  const byRegex = a.regexes.length > 0 && target !== '' && a.regexes.some((r) => r.test(target));
  let byWord = false;
  if (a.stopwords.length > 0) {
    const lower = secret.toLowerCase();
    byWord = a.stopwords.some((w) => lower.includes(w));
  }
  if (!a.and) return byRegex || byWord;
  const checks: boolean[] = [];
  if (a.regexes.length > 0) checks.push(byRegex);
  if (a.stopwords.length > 0) checks.push(byWord);
  return checks.length > 0 && checks.every(Boolean);
}

function lineAround(text: string, start: number, end: number): string {
  let s = start;
  const sMin = Math.max(0, start - 1000);
  while (s > sMin && text.charCodeAt(s - 1) !== 10 && text.charCodeAt(s - 1) !== 0) s--;
  let e = end;
  const eMax = Math.min(text.length, end + 1000);
  while (e < eMax && text.charCodeAt(e) !== 10 && text.charCodeAt(e) !== 0) e++;
  return text.slice(s, e);
}

/** Keeps one regex match of a rule as a finding when gitleaks would report it (see the header). */
function accept(
  rule: Rule,
  text: string,
  m: RegExpExecArray,
  offset: number,
  out: PatternMatch[],
  near = false,
): boolean {
  let g = rule.group;
  // Named groups mark parts of a match (jwt-base64's header fields), not the secret: mask it whole.
  if (rule.wholeMatch) g = 0;
  else if (g === 0) {
    for (let i = 1; i < m.length; i++)
      if (m[i] !== undefined && m[i] !== '') {
        g = i;
        break;
      }
  }
  let secret = m[g] ?? m[0];
  if (secret === '') return false;
  let [s, e] = m.indices![g] ?? m.indices![0]!;
  // A secret group that takes its quotes along (`"value"`) is masked inside them: the quotes may
  // be JSON syntax.
  const q = text.charCodeAt(s);
  if (e - s >= 2 && (q === 34 || q === 39) && text.charCodeAt(e - 1) === q) [s, e] = [s + 1, e - 1];
  // HTML-escaped quotes (`&quot;X&quot;` in an XML attribute) likewise: the value is what is between.
  else if (secret.length > 12 && secret.startsWith('&quot;') && secret.endsWith('&quot;')) {
    [s, e] = [s + 6, e - 6];
    secret = secret.slice(6, -6);
  }
  // In serialised JSON, `","` is the boundary between two strings, not a `name, value` pair: the
  // string walk (which scans strings apart) and the serialised text must read the same.
  if (rule.find === 'assign' && text.slice(offset + m.index, s).includes('","')) return false;
  if (rule.entropy > 0 && shannonEntropy(secret) <= rule.entropy) return false;
  if (near && !nearValueOk(secret) && !(rule.nearUuid && uuidNamedKey(secret, m[0]))) return false;
  if (!rule.block && isPlaceholder(secret, false)) return false;
  const line = (): string => lineAround(text, offset + m.index, offset + m.index + m[0].length);
  // An 'assign' match starts at the keyword: give the allowlists the identifier before it too, as
  // gitleaks' own match (up to 50 of [\w.-] before the keyword) has it.
  let match = m[0];
  if (rule.find === 'assign') {
    let b = m.index;
    const min = Math.max(0, m.index - 50);
    while (b > min && isIdentCode(text.charCodeAt(b - 1))) b--;
    if (b < m.index) match = text.slice(b, m.index) + match;
  }
  if (allowed(GLOBAL_ALLOW, secret, match, line)) return false;
  for (const a of rule.allow) if (allowed(a, secret, match, line)) return false;
  if (rule.id === 'generic-api-key' && genericAllowed(secret, match)) return false;
  out.push({ start: offset + s, end: offset + e, kind: rule.kind, reveal: 0 });
  return true;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Names whose values are ids or public halves, not secrets (the engine's own list for *_key names).
const PUBLIC_NAME_RE =
  /(?:public|verify|verifying|verification|publishable|primary|foreign|sort|partition|cache|idempotency|site|ssh|gpg|pgp|lookup|dedup|correlation|trace|request|storage|bucket|object|index|cursor|page|config|feature|event|message|i18n|translation)[_.-]?(?:key|token|id)/i;

/**
 * The engine's additions to gitleaks' allowlist of its generic rule: UUIDs (ids; the provider rules
 * that issue UUID keys, such as Heroku's, match them by name), names of public or lookup keys, and
 * PEM armour lines (`PUBLIC KEY BLOCK-----` then a body line reads like `key > value`).
 */
function genericAllowed(secret: string, match: string): boolean {
  if (UUID_RE.test(secret)) return true;
  if (match.includes('-----')) return true;
  // A build or image tag (main-3f2a9b8: a word and a short commit), not a key.
  if (TAG_RE.test(secret)) return true;
  const at = match.lastIndexOf(secret);
  const name = match.slice(0, at < 0 ? match.length - secret.length : at);
  // A Markdown quote marker at the start of the next line is not the `>` operator of `key > value`
  // (a quoted key file: `Comment: "rsa-key-2026"` then `> <body line>`).
  if (QUOTED_LINE_RE.test(name)) return true;
  // A fingerprint, digest or checksum of a key identifies it and opens nothing (API_KEY_FINGERPRINT=
  // <hex>, TOKEN_SHA256=<hex>); a go.sum line's `h1:` hash after a module path holding `api`.
  if (DIGEST_NAME_RE.test(name) && HEX_DIGEST_RE.test(secret)) return true;
  if (GO_SUM_RE.test(name)) return true;
  return PUBLIC_NAME_RE.test(name);
}
const DIGEST_NAME_RE = /(?:fingerprint|sha(?:1|224|256|384|512)?|digest|checksum|md5)[\s"'`:=]*$/i;
const HEX_DIGEST_RE = /^(?:[0-9a-f]{32,128}|[0-9A-F]{32,128}|[0-9a-f]{2}(?::[0-9a-f]{2}){15,63})$/;
const GO_SUM_RE = /[ \t]v[0-9]+\.[0-9]+\.[0-9]+\S*(?:\/go\.mod)?[ \t]h1:$/;

const SHA_RE = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;
/**
 * A UUID near the name of a provider whose keys are UUIDs is a key when the words between say key
 * (the Heroku API key is <uuid>), not when they say id (heroku request_id=<uuid>, a router log).
 */
function uuidNamedKey(secret: string, match: string): boolean {
  if (!UUID_RE.test(secret)) return false;
  const between = match.slice(0, Math.max(0, match.lastIndexOf(secret)));
  return (
    /key|token|secret|auth|credential|passw/i.test(between) &&
    !/id\b|_id|request|trace|span|session/i.test(between)
  );
}
const TAG_RE = /^[a-z]+[._-][0-9a-f]{7,12}$/;
const QUOTED_LINE_RE = /(?:\n|\\n)[ \t]*>[ \t]*$/;
/**
 * A value found only near a provider's name, not assigned to it, is taken when it reads like key
 * material: letters and digits, entropy above 3 bits, and not an id (a UUID, a SHA-1/256 hex).
 */
function nearValueOk(v: string): boolean {
  return (
    /[0-9]/.test(v) && /[A-Za-z]/.test(v) && shannonEntropy(v) > 3 && !UUID_RE.test(v) && !SHA_RE.test(v)
  );
}

const isIdentCode = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45 || c === 46;

const isDelimiter = (c: number): boolean =>
  c === 0 || c === 10 || c === 13 || c === 32 || c === 9 || c === 34 || c === 39 || c === 96;

/** Window start moved back to a delimiter (so \b and ^ read as in the whole text), bounded. */
function extendStart(text: string, at: number): number {
  if (at <= 0) return 0;
  const min = Math.max(0, at - 256);
  let s = at;
  while (s > min && !isDelimiter(text.charCodeAt(s - 1))) s--;
  return s;
}

/** Window end moved on to a delimiter, so no value is cut by the window's end. */
function extendEnd(text: string, at: number): number {
  if (at >= text.length) return text.length;
  const max = Math.min(text.length, at + MAX_EXTEND);
  let e = at;
  while (e < max && !isDelimiter(text.charCodeAt(e))) e++;
  return e;
}

function runWindow(rule: Rule, text: string, out: PatternMatch[]): void {
  const ws = extendStart(text, rule.ws);
  const we = extendEnd(text, rule.we);
  rule.ws = rule.we = -1;
  const slice = text.slice(ws, we);
  const re = rule.global;
  re.lastIndex = 0;
  for (let m = re.exec(slice); m !== null; m = re.exec(slice)) {
    accept(rule, slice, m, ws, out);
    if (m[0].length === 0) re.lastIndex++;
  }
}

function addWindow(rule: Rule, text: string, from: number, to: number, out: PatternMatch[]): void {
  const s = Math.max(0, from);
  const e = Math.min(text.length, to);
  if (rule.ws >= 0 && s <= rule.we) {
    if (e > rule.we) rule.we = e;
    return;
  }
  if (rule.ws >= 0) runWindow(rule, text, out);
  rule.ws = s;
  rule.we = e;
}

/**
 * gitleaks' semi-generic pattern needs, after the keyword, up to 20 of [ \t\w.-], up to 3 of
 * [\s'"] and an operator (= > : | ? ,). Checked with slack (the identifier alternation can be longer
 * than the keyword) before any regex runs: prose and URLs fail here at once. The reference form,
 * which reads up to 48 characters after each keyword (OperatorReach answers the same from one
 * remembered search).
 */
export function operatorAfter(text: string, from: number, codes: Uint8Array | null): boolean {
  let i = from;
  const max = Math.min(text.length, from + 48);
  const table = OPERATOR_CLASS;
  for (; i < max; i++) {
    const c = codes !== null ? codes[i]! : text.charCodeAt(i);
    const t = c < 128 ? table[c]! : 0;
    if (t !== OP_IDENT && t !== OP_BLANK) break;
  }
  return operatorWithin5(text, i, codes);
}

/** The second half of operatorAfter: an operator among the next 5 characters, past blanks and quotes. */
function operatorWithin5(text: string, from: number, codes: Uint8Array | null): boolean {
  const table = OPERATOR_CLASS;
  let i = from;
  for (let k = 0; k < 5 && i < text.length; k++, i++) {
    const c = codes !== null ? codes[i]! : text.charCodeAt(i);
    const t = c < 128 ? table[c]! : 0;
    if (t === OP_OPERATOR) return true;
    if (t !== OP_BLANK && t !== OP_BETWEEN) return false;
  }
  return false;
}

/**
 * operatorAfter over one text, for the keywords of a scan (asked in text order): the first half of
 * the check, the read over identifier characters and blanks (up to 48 of them: prose is words and
 * spaces, so it read all 48 after most keywords), is answered from one remembered search for the
 * next character that is neither, which serves every keyword before it. Asked in text order, the
 * searches together read the text at most once.
 */
export class OperatorReach {
  private from = -1;
  private at = -1;

  constructor(
    private readonly text: string,
    private readonly codes: Uint8Array | null,
  ) {}

  /** The first position from `from` on whose character is neither [\w.-] nor a blank (text.length: none). */
  private stop(from: number): number {
    // Still valid when asked from a later position that is not past what was found.
    if (from >= this.from && from <= this.at) return this.at;
    const { text, codes } = this;
    const n = text.length;
    const table = OPERATOR_CLASS;
    let i = from;
    if (codes !== null) {
      while (i < n) {
        const t = table[codes[i]!]!;
        if (t !== OP_IDENT && t !== OP_BLANK) break;
        i++;
      }
    } else {
      while (i < n) {
        const c = text.charCodeAt(i);
        const t = c < 128 ? table[c]! : 0;
        if (t !== OP_IDENT && t !== OP_BLANK) break;
        i++;
      }
    }
    this.from = from;
    this.at = i;
    return i;
  }

  /** operatorAfter(text, from, codes). */
  after(from: number): boolean {
    const max = Math.min(this.text.length, from + 48);
    const q = this.stop(from);
    return operatorWithin5(this.text, q < max ? q : max, this.codes);
  }
}
// operatorAfter's classes of ASCII characters (0: any other): [\w.-]; space and tab; the operators
// = > : | ? ,; and what else may stand between the identifier and the operator: " ' \ LF CR.
const OP_IDENT = 1;
const OP_BLANK = 2;
const OP_OPERATOR = 3;
const OP_BETWEEN = 4;
const OPERATOR_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++)
  if (
    (c >= 48 && c <= 57) ||
    (c >= 65 && c <= 90) ||
    (c >= 97 && c <= 122) ||
    c === 95 ||
    c === 45 ||
    c === 46
  )
    OPERATOR_CLASS[c] = OP_IDENT;
OPERATOR_CLASS[32] = OPERATOR_CLASS[9] = OP_BLANK;
for (const c of [61, 62, 58, 124, 63, 44]) OPERATOR_CLASS[c] = OP_OPERATOR;
for (const c of [34, 39, 92, 10, 13]) OPERATOR_CLASS[c] = OP_BETWEEN;

/** Whether a rule's RuleNeeds hold at `start` (the reference form: NeedChecks answers the same). */
export function needsHold(needs: RuleNeeds, text: string, start: number): boolean {
  const n = text.length;
  if (needs.operatorWithin !== undefined) {
    for (let j = start, max = Math.min(n, start + needs.operatorWithin); j < max; j++) {
      const c = text.charCodeAt(j);
      if (c === 58 || c === 61) return true;
    }
  }
  if (needs.digitTokenWithin !== undefined) {
    let x = start + needs.digitTokenWithin;
    while (x < n && !isBreak(text.charCodeAt(x))) x++;
    for (let j = start; j < x && j < n; j++) {
      const c = text.charCodeAt(j);
      if (c >= 48 && c <= 57) return true;
    }
  }
  return needs.operatorWithin === undefined && needs.digitTokenWithin === undefined;
}

/** ASCII white space and the quotes: where a value's MIXED_CASE look-ahead stops (a subset of it). */
const isBreak = (c: number): boolean => c === 32 || (c >= 9 && c <= 13) || c === 34 || c === 39 || c === 96;

/**
 * needsHold over one text, for keywords asked about in text order (a later keyword may start a few
 * characters before an earlier one): the next ':', '=' and digit are found with native searches and
 * remembered, so one search serves every keyword before what it found; a step back is checked over
 * the characters stepped back only. The searches together read the text about once.
 */
export class NeedChecks {
  private readonly colon = new NextOf(':');
  private readonly equals = new NextOf('=');
  private readonly digit: NextOf;
  // the first break at or after a position (the end of the token there), remembered likewise
  private breakFrom = -1;
  private breakAt = -1;

  constructor(
    private readonly text: string,
    private readonly codes: Uint8Array | null,
  ) {
    this.digit = new NextOf(null, byteSkipOf(codes));
  }

  hold(needs: RuleNeeds, start: number): boolean {
    const text = this.text;
    if (needs.operatorWithin !== undefined) {
      const limit = Math.min(text.length, start + needs.operatorWithin); // text.length: none found
      if (this.colon.from(text, start) < limit || this.equals.from(text, start) < limit) return true;
    }
    if (needs.digitTokenWithin !== undefined) {
      const x = this.breakAfter(start + needs.digitTokenWithin);
      if (this.digit.from(text, start) < x) return true;
    }
    return needs.operatorWithin === undefined && needs.digitTokenWithin === undefined;
  }

  private breakAfter(from: number): number {
    const { text, codes } = this;
    const n = text.length;
    if (from >= n) return n;
    if (from >= this.breakFrom && from <= this.breakAt) return this.breakAt;
    if (from < this.breakFrom) {
      for (let j = from; j < this.breakFrom; j++)
        if (isBreak(codes !== null ? codes[j]! : text.charCodeAt(j))) return j;
      return this.breakAt;
    }
    let j = from;
    while (j < n && !isBreak(codes !== null ? codes[j]! : text.charCodeAt(j))) j++;
    this.breakFrom = from;
    this.breakAt = j;
    return j;
  }
}

const DIGIT_G = /[0-9]/g;
/** The next position of a character (a digit when null) from a position on, remembered (see NeedChecks). */
class NextOf {
  private f = -1;
  private at = -1;

  /** `wasm`: the text's bytes are in the WebAssembly module's memory (its `digit` searches). */
  constructor(
    private readonly ch: string | null,
    private readonly wasm: ByteSkip | null = null,
  ) {}

  from(text: string, from: number): number {
    if (from >= this.f && from <= this.at) return this.at;
    if (from < this.f) {
      for (let j = from; j < this.f; j++) {
        const c = text.charCodeAt(j);
        if (this.ch === null ? c >= 48 && c <= 57 : c === this.ch.charCodeAt(0)) return j;
      }
      return this.at;
    }
    let p: number;
    if (this.ch !== null) p = text.indexOf(this.ch, from);
    else if (this.wasm !== null) p = from < text.length ? this.wasm.digit(from, text.length) : -1;
    else {
      DIGIT_G.lastIndex = from;
      p = DIGIT_G.exec(text)?.index ?? -1;
    }
    this.f = from;
    this.at = p < 0 ? text.length : p;
    return this.at;
  }
}

/**
 * Called for each keyword of gitleaks' generic rule (password, secret, token, key ...) that no
 * assignment operator follows: [start, end) of the keyword. The engine's prose rule reads on from there.
 */
export type GenericKeywordHook = (text: string, start: number, end: number) => void;

/** All findings of the ported rules in text, unsorted, possibly overlapping. */
export function scanPortedRules(
  text: string,
  out: PatternMatch[],
  onProse?: GenericKeywordHook,
  literals?: LiteralHits,
  ascii?: Uint8Array | null,
): void {
  const first = literals?.first;
  const n = text.length;
  const touched: Rule[] = [];
  for (const r of PORTED_RULES) r.next = 0;
  // `ascii`: asciiCodes(text) worked out by the caller (null: not ASCII or short)
  const codes = ascii === undefined ? asciiCodes(text) : ascii;
  const reach = new OperatorReach(text, codes);
  let checks: NeedChecks | undefined;
  /** The keywords that end at i (state s's output o): each tries its rules. */
  const outputs = (i: number, o: number): void => {
    for (const w of OUT_LIST[o - 1]!) {
      const start = i + 1 - KEYWORDS[w]!.length;
      const li = LITERAL_OF[w]!;
      if (li >= 0 && first !== undefined && first[li]! < 0) first[li] = start;
      for (const rule of RULES_OF[w]!) {
        if (rule.find === 'prefix' || rule.find === 'assign') {
          if (start < rule.next) continue;
          if (rule.needs !== null && !(checks ??= new NeedChecks(text, codes)).hold(rule.needs, start))
            continue;
          let re = rule.sticky;
          if (rule.find === 'assign' && !reach.after(i + 1)) {
            if (rule.near === null) {
              if (onProse !== undefined && rule.id === 'generic-api-key') onProse(text, start, i + 1);
              continue;
            }
            re = rule.near;
          }
          re.lastIndex = start;
          const m = re.exec(text);
          // A match the allowlists reject does not hide the hits inside it (`api-key = x`, then
          // `key = y`): what is found must not depend on what precedes the string.
          if (m && accept(rule, text, m, 0, out, re === rule.near))
            rule.next = start + Math.max(1, m[0].length);
          else if (m === null && onProse !== undefined && rule.id === 'generic-api-key')
            onProse(text, start, i + 1);
        } else {
          if (rule.ws < 0) touched.push(rule);
          addWindow(rule, text, start - WINDOW_BEFORE, i + 1 + WINDOW_AFTER, out);
        }
      }
    }
  };
  // The bytes are in the WebAssembly skip's memory (the outermost scan's shared buffer): the loop
  // below runs there and returns at each keyword's end.
  if (codes !== null && usesByteSkip(codes)) {
    const { run, state } = skip!;
    for (let i = run(0, n, 0); i >= 0;) {
      const s = state();
      outputs(i, OUT[s]!);
      i = run(i + 1, n, s);
    }
    finish(touched, text, out);
    return;
  }
  let s = 0;
  for (let i = 0; i < n; i++) {
    if (s === 0) {
      // From the root a keyword can only start where the first three characters of one do (or a
      // two-character keyword): skip the other positions.
      const j = codes !== null ? nextStartIn(codes, i, n) : nextStart(text, i, n);
      if (j < 0) break;
      i = j;
      const c0 = text.charCodeAt(i);
      s = DELTA[c0 < ALPHABET ? CLASS[c0]! : 0]!; // one character deep, and the next two fit
      continue;
    }
    let c = codes !== null ? codes[i]! : text.charCodeAt(i);
    const k = c < ALPHABET ? CLASS[c]! : 0;
    s = DELTA[s * K + k]!;
    // One character deep: a keyword starting here also needs the next two characters to fit.
    if (s <= LAST_DEPTH1 && s !== 0) {
      if (i + 1 >= n) break;
      c = text.charCodeAt(i + 1);
      const k2 = c < ALPHABET ? CLASS[c]! : 0;
      let k3 = 0;
      if (i + 2 < n) {
        c = text.charCodeAt(i + 2);
        if (c < ALPHABET) k3 = CLASS[c]!;
      }
      if (START3[(k * K + k2) * K + k3] !== 1) s = 0;
      continue;
    }
    const o = OUT[s]!;
    if (o !== 0) outputs(i, o);
  }
  finish(touched, text, out);
}

// A long text that is all ASCII (most Gitea results) is copied natively into bytes once: loops read
// a byte array markedly faster than charCodeAt. Other texts are read with charCodeAt.
const ASCII_MIN = 4096;
// One buffer is kept for the outermost scan of a text (scanText's, never nested in another), so a
// 1 MB result does not allocate a megabyte per call; nested scans and larger texts get their own.
const SHARED_MAX = 2 << 20;
let shared: Uint8Array = new Uint8Array(0);
// With WebAssembly, the shared buffer is the skip's linear memory (allocated at first use).
let skip: ByteSkip | null | undefined;
const encoder = new TextEncoder();
/**
 * The characters of text as bytes when it is long and all ASCII, else null. `reuse`: into the one
 * shared buffer (valid until the next reusing call; only for the outermost scan).
 */
export function asciiCodes(text: string, reuse = false): Uint8Array | null {
  const n = text.length;
  if (n < ASCII_MIN) return null;
  let codes: Uint8Array;
  if (reuse && n <= SHARED_MAX) {
    if (skip === undefined) {
      skip = createByteSkip(
        START_BITS,
        SHORT_BITS,
        START4_BITS,
        {
          delta: DELTA,
          hasOutput: Uint8Array.from(OUT, (o) => (o !== 0 ? 1 : 0)),
          classOf: CLASS,
          classes: K,
          lastDepth1: LAST_DEPTH1,
          start3: START3,
        },
        SHARED_MAX,
      );
      if (skip !== null) shared = skip.bytes;
    }
    if (shared.length < n) shared = new Uint8Array(Math.min(SHARED_MAX, Math.max(n, 2 * shared.length)));
    codes = shared.length === n ? shared : shared.subarray(0, n);
  } else codes = new Uint8Array(n);
  const { read, written } = encoder.encodeInto(text, codes);
  return read === n && written === n ? codes : null;
}

/** The WebAssembly module when codes are in its memory (the outermost scan's bytes), else null. */
export function byteSkipOf(codes: Uint8Array | null): ByteSkip | null {
  return codes !== null && usesByteSkip(codes) ? skip! : null;
}

/** Whether codes are in the WebAssembly skip's memory (then scanPortedRules skips with it). */
export function usesByteSkip(codes: Uint8Array): boolean {
  return skip != null && codes.buffer === skip.bytes.buffer && codes.byteOffset === skip.bytes.byteOffset;
}

/**
 * The first position from i (i < n) where a keyword can start (START3 over the characters there and
 * the next two, class 0 past the end), or -1 when none can.
 */
function nextStart(text: string, i: number, n: number): number {
  if (i + 1 >= n) return -1;
  let c = text.charCodeAt(i);
  let k = c < ALPHABET ? CLASS[c]! : 0;
  c = text.charCodeAt(i + 1);
  let k2 = c < ALPHABET ? CLASS[c]! : 0;
  for (; i + 2 < n; i++) {
    c = text.charCodeAt(i + 2);
    const k3 = c < ALPHABET ? CLASS[c]! : 0;
    if (START3[(k * K + k2) * K + k3] === 1) return i;
    k = k2;
    k2 = k3;
  }
  return START3[(k * K + k2) * K] === 1 ? i : -1;
}

// START3 over raw ASCII bytes as a bitmap of 2^21 bits (256 KB), indexed by three 7-bit bytes: the
// byte skip loop reads one byte and one table word per position, with no class lookups. A position
// that passes is then checked on four bytes: SHORT_BITS marks the three-byte prefixes of the
// keywords of two or three characters (a keyword starts there whatever follows), START4_BITS a hash
// of the first four bytes of the longer ones (2^20 bits; a collision only lets a position through).
// Common words share a keyword's first three letters (gitea/github, merge/meraki, update/datadog):
// the fourth byte halves the positions the automaton is entered at.
const START_BITS = new Int32Array((1 << 21) >> 5);
const SHORT_BITS = new Int32Array((1 << 21) >> 5);
const START4_BITS = new Int32Array((1 << 20) >> 5);
const hash4 = (idx3: number, d: number): number => Math.imul((idx3 << 7) | d, 0x9e3779b1) >>> 12;
{
  const variants = (ch: string): number[] => [
    ...new Set([ch.toLowerCase().charCodeAt(0), ch.toUpperCase().charCodeAt(0)]),
  ];
  const set = (bits: Int32Array, idx: number): void => {
    bits[idx >> 5]! |= 1 << (idx & 31);
  };
  for (const w of KEYWORDS)
    for (const x of variants(w[0]!))
      for (const y of variants(w[1]!)) {
        if (w.length === 2) {
          for (let z = 0; z < ALPHABET; z++) {
            set(START_BITS, (x << 14) | (y << 7) | z);
            set(SHORT_BITS, (x << 14) | (y << 7) | z);
          }
          continue;
        }
        for (const z of variants(w[2]!)) {
          const idx3 = (x << 14) | (y << 7) | z;
          set(START_BITS, idx3);
          if (w.length === 3) set(SHORT_BITS, idx3);
          else for (const d of variants(w[3]!)) set(START4_BITS, hash4(idx3, d));
        }
      }
}

/** nextStart over the bytes of an ASCII text, with START_BITS, SHORT_BITS and START4_BITS. */
function nextStartIn(b: Uint8Array, i: number, n: number): number {
  if (i + 1 >= n) return -1;
  let idx = (b[i]! << 7) | b[i + 1]!;
  for (; i + 2 < n; i++) {
    idx = ((idx << 7) | b[i + 2]!) & 0x1fffff;
    if ((START_BITS[idx >> 5]! >>> (idx & 31)) & 1) {
      if ((SHORT_BITS[idx >> 5]! >>> (idx & 31)) & 1) return i;
      if (i + 3 < n) {
        const h = hash4(idx, b[i + 3]!);
        if ((START4_BITS[h >> 5]! >>> (h & 31)) & 1) return i;
      }
    }
  }
  idx = (idx << 7) & 0x1fffff; // class 0 past the end
  return (START_BITS[idx >> 5]! >>> (idx & 31)) & 1 ? i : -1;
}

function finish(touched: Rule[], text: string, out: PatternMatch[]): void {
  for (const rule of touched) if (rule.ws >= 0) runWindow(rule, text, out);
}

// Names that name a provider's credential by one of gitleaks' identifier keywords (ALGOLIA_ADMIN,
// okta_api, HEROKU_KEY): a value under such a key, or next to such a `name`, is scanned as
// `"NAME":"value"` (scrub.util.ts), so the provider's `name = value` rule applies to JSON too. The
// generic rule's keywords are left out (the engine's own key-name rule covers them).
const PROVIDER_NAME_RE = new RegExp(
  [
    ...new Set([
      ...GITLEAKS_RULES.filter(
        (r) => (r.find === 'assign' || r.regex.startsWith(IDENT_PREFIX)) && r.id !== 'generic-api-key',
      ).flatMap((r) => r.keywords),
      ...PROVIDER_NAME_WORDS,
    ]),
  ]
    .filter((k) => k.length >= 4)
    .map((k) => k.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join('|'),
  'i',
);

/** Whether a variable or key name contains a provider keyword of gitleaks' `name = value` rules. */
export function namesProvider(name: string): boolean {
  return name.length <= 64 && PROVIDER_NAME_RE.test(name);
}
