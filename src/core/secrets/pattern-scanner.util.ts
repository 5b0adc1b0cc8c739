// Finds layer-2 secrets in text in one linear pass per scan kind:
// 1. one combined regex over all rule anchors (literals), each hit confirmed by bounded sticky regexes;
// 2. one case-insensitive keyword regex for assignments (password=, api_key:, Authorization: Bearer ...);
// 3. indexOf loops for private key blocks and credentials in URLs.
// NUL (U+0000) separates the strings of one result when they are scanned together: no match may
// cross it, so every character class below excludes it and the block/URL scans stop at it.
import {
  afterEscape,
  ANCHORED_RULES,
  AnchoredRule,
  boundaryBefore,
  PatternMatch,
  looksRandom,
  randomLetters,
} from './pattern-rules.util';
import { RUN_MAX, RUN_MIN, WORD_RUN_MIN, WORD_SEP, WORD_UPPER, type ByteSkip } from './byte-skip.util';
import { META_WORDS } from './keyword-rules';
import { isPlaceholder } from './placeholder.util';
import { asciiCodes, byteSkipOf, LiteralHits, namesProvider, scanPortedRules } from './ported-rules.util';

const SEP = '\u0000';

// Rules whose anchor starts the secret are dispatched on the secret's first two characters. Three
// cheap scans find where such a token can start (see scanAnchored); the other rules ("inner":
// anchors in the middle of the secret, like ':AA' or 'Q~') have their own combined regex.
const INNER_ANCHORS = new Set([
  'Q~',
  '-us',
  '/api/webhooks/',
  '/services/',
  '$production$',
  '$sandbox$',
  '/webhookb2/',
  '/hooks/',
]);
const PREFIX_RULES = new Map<string, AnchoredRule[]>();
const INNER_RULES: AnchoredRule[] = [];
for (const rule of ANCHORED_RULES) {
  if (INNER_ANCHORS.has(rule.anchor)) {
    INNER_RULES.push(rule);
    continue;
  }
  const key = rule.anchor.slice(0, 2);
  const list = PREFIX_RULES.get(key) ?? [];
  list.push(rule);
  PREFIX_RULES.set(key, list);
}
const escapeRe = (a: string): string => a.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
// V8's regex engine is fast when the first character of every alternative is rare, and slow for
// long alternations of literals starting with common lower-case letters. So:
// 1. SEP_RE: a separator followed by 16 token characters finds the random part of ghp_..., glpat-...,
//    sk-..., npm_..., hvs...., and the JWT's dots; the token start is then found by a bounded look back;
const SEP_RE = /[_.-][A-Za-z0-9_-]{16}/g;
// 2. UPPER_RE: the prefixes that start with an upper-case letter (AKIA, AIza, GOCSPX-, discord ids ...);
const UPPER_ANCHORS = [...PREFIX_RULES.keys()]
  .flatMap((k) => PREFIX_RULES.get(k)!.map((r) => r.anchor))
  .filter((a) => /^[A-Z]/.test(a) && a !== 'SK' && a.length > 2);
/** The pairs a Discord bot token starts with (the base64 of a snowflake id), as UPPER_RE has them. */
const DISCORD_PAIRS = ['MT', 'Mj', 'Mz', 'ND', 'NT', 'Nj', 'Nz', 'OD', 'OT'];
const UPPER_RE = new RegExp(
  [...UPPER_ANCHORS.map(escapeRe), 'SK[0-9a-f]', '(?:M[Tjz]|N[DTjz]|O[DT])[A-Za-z0-9]{20}'].join('|'),
  'g',
);
// Over the outermost scan's bytes (in the WebAssembly module's memory) both scans are answered from
// the runs of WORD_RUN_MIN or more token characters ([A-Za-z0-9_-]) that the module's `words` probe
// finds, instead of a regex trying every position: a SEP_RE match is a separator followed by 16
// token characters, so it lies in (or just before, for '.') such a run; an UPPER_RE match is looked
// for in such runs (where its rules' matches start, when they start with WORD_RUN_MIN token
// characters: AnchoredRule.tokenRun), and the anchors of the other rules tried at one (ATBB, ATATT3,
// SG.) with indexOf. Both take the candidates in text order with the loops' own skips, so the rules
// are tried at the same positions, in the same order, as by the regexes (see scanAnchoredOverRuns).
const UPPER_STICKY = new RegExp(UPPER_RE.source, 'y');
/** The first two characters of the UPPER_RE matches (c0 << 7 | c1): the keys of its rules. */
const UPPER_PAIRS = new Uint8Array(1 << 14);
for (const pair of [...UPPER_ANCHORS.map((a) => a.slice(0, 2)), 'SK', ...DISCORD_PAIRS])
  UPPER_PAIRS[(pair.charCodeAt(0) << 7) | pair.charCodeAt(1)] = 1;
/** The anchors of the rules tried at an UPPER_RE match whose matches need not start a token run. */
const UPPER_LITERALS = [
  ...new Set(
    [...PREFIX_RULES.values()]
      .flat()
      .filter(
        (r) =>
          UPPER_PAIRS[(r.anchor.charCodeAt(0) << 7) | r.anchor.charCodeAt(1)] === 1 &&
          r.tokenRun < WORD_RUN_MIN,
      )
      .map((r) => r.anchor),
  ),
];
// 3. the few prefixes without a separator, each as its own literal regex (fast), with the offset of
//    the token start from the match (the telegram token starts after the colon);
//    found with indexOf (much faster than a regex for a literal) and confirmed by a sticky regex.
//    Each entry: the needle searched (its rarest part: 'y2' is found far faster than 'oy2'), where
//    the needle sits in the pattern, the confirming regex, and the token start within the pattern.
const LITERALS: Array<[string, number, RegExp, number]> = [
  ['y2', 1, /oy2[a-z0-9]{40}/y, 0],
  [':AA', 0, /:AA[A-Za-z0-9_-]{33}/y, 1],
  // Prefixes without a separator before the random part.
  ['dapi', 0, /dapi[a-f0-9]{32}/y, 0],
  ['glc_', 0, /glc_[A-Za-z0-9+/]{32}/y, 0],
  ['dp.', 0, /dp\.[a-z]{2,5}\./y, 0],
  ['cio', 0, /cio[A-Za-z0-9]{32}/y, 0],
  ['cmVmdGtu', 0, /cmVmdGtuOjAxOj/y, 0],
];
// 4. the inner anchors, each found with indexOf: rare literals are near free that way, while one
//    alternation led by '-', '/' and '$' costs a regex step at every such character. Both webhook
//    anchors contain "hooks" ('/api/webhooks/', and '/services/' which the Slack rule only accepts
//    after 'hooks.slack.com'), so one search finds both.
const INNER_LITERALS = ['Q~', '-us', '$production$', '$sandbox$', '/webhookb2/'];
const SLACK_HOST = 'hooks.slack.com';

const isWordCode = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;

function tryPrefixRules(text: string, at: number, out: Array<PatternMatch & { prio: number }>): number {
  const rules = PREFIX_RULES.get(text.slice(at, at + 2));
  if (!rules) return -1;
  for (const rule of rules) {
    const span = rule.match(text, at);
    if (span) {
      out.push({ start: span[0], end: span[1], kind: rule.kind, reveal: rule.reveal, prio: 2 });
      return span[1];
    }
  }
  return -1;
}

/** The separator scan's token start for a SEP_RE match at `at`: a bounded look back. */
function tokenStartBefore(text: string, at: number): number {
  // Look back (at most 128 characters) to the start of the token that holds this separator.
  let s = at;
  while (s > 0 && at - s < 128 && isWordCode(text.charCodeAt(s - 1))) s--;
  if (s > 0 && text.charCodeAt(s - 1) === 92 && s < at && afterEscape(text, s + 1)) s++; // "\nghp_..."
  return s;
}

/**
 * The separator and upper-case prefix scans of scanAnchored over the runs of token characters (see
 * UPPER_STICKY): the same rules tried at the same positions in the same order as by SEP_RE and UPPER_RE.
 */
function scanAnchoredOverRuns(
  text: string,
  codes: Uint8Array,
  wasm: ByteSkip,
  out: Array<PatternMatch & { prio: number }>,
  share = RUNS_SHARE_MAX,
): void {
  const n = text.length;
  // The runs of WORD_RUN_MIN or more token characters, as [start, end) pairs in text order: those
  // that can hold a separator match (a '_' or '-' in them, or a '.' before), and those that hold an
  // upper-case letter (most runs are hex: neither).
  const sepRuns: number[] = [];
  const upperRuns: number[] = [];
  let sepBytes = 0;
  let upperBytes = 0;
  for (let p = wasm.words(WORD_RUN_MIN - 1, n); p >= 0;) {
    const s = wasm.runStart();
    const e = wasm.runEnd();
    const f = wasm.runFlags();
    if ((f & WORD_SEP) !== 0 || (s > 0 && codes[s - 1] === 46)) {
      sepRuns.push(s, e);
      sepBytes += e - s;
    }
    if ((f & WORD_UPPER) !== 0) {
      upperRuns.push(s, e);
      upperBytes += e - s;
    }
    p = wasm.words(e + WORD_RUN_MIN, n);
  }
  // Runs that are much of the text (long tokens, base64, adversarial inputs) are read faster by the
  // regex, which the reads below would only repeat character by character: each scan takes its
  // regex when its runs are more than an eighth of the text (the two find the same).
  if (sepBytes * share > n) separatorsByRegex(text, out);
  else separatorsOverRuns(text, codes, sepRuns, out);
  if (upperBytes * share > n) upperByRegex(text, out);
  else upperOverRuns(text, codes, upperRuns, out);
}

/** Above 1 / RUNS_SHARE_MAX of the text in its runs, a scan over runs takes its regex instead (0: never). */
const RUNS_SHARE_MAX = 8;

function separatorsOverRuns(
  text: string,
  codes: Uint8Array,
  sepRuns: number[],
  out: Array<PatternMatch & { prio: number }>,
): void {
  // SEP_RE: a separator at p, token characters at p + 1 .. p + 16 (so p + 17 <= the run's end; the
  // separator is in the run, or is the '.' just before it). `from` is the regex's lastIndex.
  const span = WORD_RUN_MIN + 1;
  let from = 0;
  let lastStart = -1;
  for (let r = 0; r < sepRuns.length; r += 2) {
    const last = sepRuns[r + 1]! - span;
    for (let p = Math.max(sepRuns[r]! - 1, from); p <= last; p++) {
      const c = codes[p]!;
      if (c !== 95 && c !== 46 && c !== 45) continue;
      from = p + span;
      const s = tokenStartBefore(text, p);
      if (s !== lastStart && boundaryBefore(text, s)) {
        lastStart = s;
        const end = tryPrefixRules(text, s, out);
        if (end > from) from = end;
      }
      p = from - 1;
    }
  }
}

function upperOverRuns(
  text: string,
  codes: Uint8Array,
  upperRuns: number[],
  out: Array<PatternMatch & { prio: number }>,
): void {
  // UPPER_RE: the next match from `at` on (its lastIndex) is the first of the next one starting in a
  // run and the next one at an anchor of UPPER_LITERALS (each remembered until passed).
  let at = 0;
  let r = 0;
  let inRun = -1;
  const lit = UPPER_LITERALS.map(() => -1);
  const upperAt = (p: number): boolean => {
    UPPER_STICKY.lastIndex = p;
    return UPPER_STICKY.test(text);
  };
  for (;;) {
    if (inRun < at) {
      inRun = -1;
      for (; r < upperRuns.length; r += 2) {
        // an UPPER_RE match starts with two token characters: its second is in the run too
        const last = upperRuns[r + 1]! - 2;
        let p = Math.max(upperRuns[r]!, at);
        for (; p <= last; p++) if (UPPER_PAIRS[(codes[p]! << 7) | codes[p + 1]!] === 1 && upperAt(p)) break;
        if (p <= last) {
          inRun = p;
          break;
        }
      }
    }
    let next = inRun;
    for (let k = 0; k < lit.length; k++) {
      let q = lit[k]!;
      if (q < at && q !== -2) {
        q = text.indexOf(UPPER_LITERALS[k]!, at);
        while (q >= 0 && !upperAt(q)) q = text.indexOf(UPPER_LITERALS[k]!, q + 1);
        lit[k] = q < 0 ? -2 : q; // -2: no more
      }
      if (q >= 0 && (next < 0 || q < next)) next = q;
    }
    if (next < 0) break;
    const end = tryPrefixRules(text, next, out);
    at = end > next ? end : next + 1;
  }
}

function scanAnchored(
  text: string,
  out: Array<PatternMatch & { prio: number }>,
  lits: LiteralHits,
  codes: Uint8Array | null,
): void {
  const wasm = byteSkipOf(codes);
  if (wasm !== null) scanAnchoredOverRuns(text, codes!, wasm, out);
  else scanAnchoredByRegex(text, out);
  scanAnchoredLiterals(text, out, lits);
}

/**
 * What the separator and upper-case prefix scans find in text: over its token runs in the
 * WebAssembly module's memory (`runs`; `auto` as the outermost scan of a long ASCII text does, by
 * the regexes where the runs are much of the text) or by their regexes (as any other scan). For
 * tests comparing them.
 */
export function scanTokenPrefixes(text: string, how: 'runs' | 'auto' | 'regex'): PatternMatch[] {
  const out: Array<PatternMatch & { prio: number }> = [];
  const codes = how !== 'regex' ? asciiCodes(text, true) : null;
  const wasm = byteSkipOf(codes);
  if (how !== 'regex' && wasm === null) throw new Error('not in the WebAssembly module: no token runs');
  if (wasm !== null) scanAnchoredOverRuns(text, codes!, wasm, out, how === 'runs' ? 0 : RUNS_SHARE_MAX);
  else scanAnchoredByRegex(text, out);
  return out.map(({ start, end, kind, reveal }) => ({ start, end, kind, reveal }));
}

/** The separator and upper-case prefix scans of scanAnchored, by SEP_RE and UPPER_RE. */
function scanAnchoredByRegex(text: string, out: Array<PatternMatch & { prio: number }>): void {
  separatorsByRegex(text, out);
  upperByRegex(text, out);
}

function separatorsByRegex(text: string, out: Array<PatternMatch & { prio: number }>): void {
  let lastStart = -1;
  SEP_RE.lastIndex = 0;
  for (let m = SEP_RE.exec(text); m !== null; m = SEP_RE.exec(text)) {
    const s = tokenStartBefore(text, m.index);
    if (s === lastStart || !boundaryBefore(text, s)) continue;
    lastStart = s;
    const end = tryPrefixRules(text, s, out);
    if (end > SEP_RE.lastIndex) SEP_RE.lastIndex = end;
  }
}

function upperByRegex(text: string, out: Array<PatternMatch & { prio: number }>): void {
  UPPER_RE.lastIndex = 0;
  for (let m = UPPER_RE.exec(text); m !== null; m = UPPER_RE.exec(text)) {
    const end = tryPrefixRules(text, m.index, out);
    UPPER_RE.lastIndex = end > m.index ? end : m.index + 1;
  }
}

/** The rest of scanAnchored: the prefixes without a separator and the inner anchors, found with indexOf. */
function scanAnchoredLiterals(
  text: string,
  out: Array<PatternMatch & { prio: number }>,
  lits: LiteralHits,
): void {
  for (const [needle, needleAt, re, offset] of LITERALS) {
    for (let i = lits.indexOf(text, needle); i >= 0;) {
      const at = i - needleAt;
      let end = -1;
      if (at >= 0) {
        re.lastIndex = at;
        if (re.test(text)) end = tryPrefixRules(text, at + offset, out);
      }
      i = lits.indexOf(text, needle, end > i ? end : i + 1);
    }
  }
  for (const anchor of INNER_LITERALS) {
    for (let i = lits.indexOf(text, anchor); i >= 0;) {
      const end = tryInnerRule(text, anchor, i, out);
      i = lits.indexOf(text, anchor, end > i ? end : i + 1);
    }
  }
  let nextWebhook = -1; // end of the last webhook match: anchors inside it are not tried again
  for (let i = lits.indexOf(text, 'hooks'); i >= 0; i = lits.indexOf(text, 'hooks', i + 1)) {
    let at = -1;
    let anchor = '';
    if (i >= 8 && text.startsWith('/api/webhooks/', i - 8)) [at, anchor] = [i - 8, '/api/webhooks/'];
    else if (text.startsWith(SLACK_HOST, i) && text.startsWith('/services/', i + SLACK_HOST.length))
      [at, anchor] = [i + SLACK_HOST.length, '/services/'];
    else if (i >= 1 && text.startsWith('/hooks/', i - 1)) [at, anchor] = [i - 1, '/hooks/'];
    if (at < nextWebhook || anchor === '') continue;
    const end = tryInnerRule(text, anchor, at, out);
    if (end > nextWebhook) nextWebhook = end;
  }
}

function tryInnerRule(
  text: string,
  anchor: string,
  at: number,
  out: Array<PatternMatch & { prio: number }>,
): number {
  for (const rule of INNER_RULES) {
    if (rule.anchor !== anchor) continue;
    const span = rule.match(text, at);
    if (span) {
      out.push({ start: span[0], end: span[1], kind: rule.kind, reveal: rule.reveal, prio: 2 });
      return span[1];
    }
  }
  return -1;
}

// Key names that hold secrets: password and its abbreviations (pass, passwd, pwd, pswd, pw,
// passcode), secret, token, api/access/account keys, private keys, credentials, any name ending in
// _key/-key/.key, _pat (personal access token) or _salt (checked harder: see KEY_NAME_DENY and
// strongKeyValue), `auth` as a JSON key, Authorization, Bearer, and the signature or security token
// of a signed URL (Azure SAS, AWS and GCS presigned URLs, CloudFront).
const KEYWORD_RE =
  /p(?:ass(?:w(?:or)?d|phrase|code)?|wd|swd|w(?=\\?["']?\s{0,3}[:=])|rivate[_ -]?key|resharedkey)|s(?:ecret|haredaccesskey)|token|cred(?:ential)?s?(?![a-z])|[_.-](?:key|pat|salt)(?![a-z])|a(?:pi[_-]?key|pikey|ccess[_-]?key|ccountkey|uth(?:orization|(?=\\?"\s{0,3}:|[ \t]{0,3}=)))|bearer|[?&](?:sig|key|signature|x-amz-signature|x-goog-signature|x-amz-security-token)=/gi;
const KEYWORD_TEST_RE = new RegExp(KEYWORD_RE.source, 'i');
/**
 * Whether an object key can start a keyword match whose value is the key's own value (`"api_key":"..."`
 * in serialised JSON). The object walk scans such entries as `"key":"value"` so they behave exactly
 * as in the serialised text; every other value is scanned on its own.
 */
export function keyStartsAssignment(key: string): boolean {
  return KEYWORD_TEST_RE.test(JSON.stringify(key) + ':');
}
const KEY_SUFFIX_OK =
  /^(?:[_-]?(?:access[_-]?)?(?:key(?:[_-]?base)?|value|secret|token|string|hash(?=$)|v[0-9]|[0-9]|word|wd|phrase|data))?$/i;
// Names ending in _key that are not secrets (ids, public halves, lookups).
const KEY_NAME_DENY =
  /(?:public|verify|verifying|verification|primary|foreign|sort|partition|cache|idempotency|publishable|site|ssh|gpg|pgp|host|sign_?in|lookup|hash|row|map|dict|object|item|entry|group|shortcut|hot|i18n|translation|message|label|storage_?path|file|s3|bucket|index|unique|composite|natural|surrogate|search|query|config|setting|redis|metric|attribute|feature|flag|event|field|column|table|schema|sequence|version|release|cursor|page|api_?version|registry|license_?type|cluster|node|region|zone|tenant|project|account_?id|dedup(?:lication)?|correlation|trace|request|session_?name)$/i;

const SECRET_NAME_RE =
  /(?:pass(?:word|wd|phrase|code)?|pwd|pswd|pw|secret|token|key|credentials?|creds|auth|private[_-]?key|[_-]pat|[_-]salt)(?:[_-]?(?:v?[0-9]{1,2}|base|value|string))?$/i;
const KEY_END_RE = /key(?:[_-]?(?:v?[0-9]{1,2}|base|value|string))?$/i;

/** Whether a variable name (an Actions variable, an env entry, a map key) names a secret. */
export function namesSecret(name: string): boolean {
  if (name.length > 64 || !SECRET_NAME_RE.test(name)) return false;
  if (!KEY_END_RE.test(name) || /(?:api|access|private|secret|account)[_-]?key/i.test(name)) return true;
  return !KEY_NAME_DENY.test(name.replace(/[_.-]?key(?:[_-]?(?:v?[0-9]{1,2}|base|value|string))?$/i, ''));
}

// A variable named by its secret word first (TOKEN_PROD, PASSWORD_DB, SECRET_STAGING; not when a
// later segment says the name holds something else: TOKEN_TTL, SECRET_NAME), or by a word for keying
// material (HMAC, PEPPER, SALT, PAT, with an optional _KEY/_SECRET): what an Actions variable or an
// env entry is named, its value then read as that name's.
const SECRET_FIRST_RE =
  /^(?:[A-Za-z0-9]{1,24}[_.-]){0,3}(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key)((?:[_.-][A-Za-z0-9]{1,24}){1,3})$/i;
const KEYING_RE = /^(?:[A-Za-z0-9]{1,24}[_.-]){0,3}(?:hmac|pepper|salt|pat)(?:[_.-]?(?:key|secret))?$/i;
const META_WORD_SET = new Set(META_WORDS);

/** Whether a name of keying material (HMAC_KEY, PEPPER, SALT, PAT) names a variable. */
export function namesKeying(name: string): boolean {
  return name.length <= 64 && KEYING_RE.test(name);
}

/** Whether a variable name puts its secret word first or names keying material (see above). */
export function namesSecretVariable(name: string): boolean {
  if (name.length > 64) return false;
  if (KEYING_RE.test(name)) return true;
  const m = SECRET_FIRST_RE.exec(name);
  if (m === null) return false;
  for (const seg of m[1]!.slice(1).split(/[_.-]/)) if (META_WORD_SET.has(seg.toLowerCase())) return false;
  return true;
}

/** A value assigned to a *_key name: long and random-looking, not a path, URL, id or public key. */
const PATH_RE = /^\/(?:(?:[a-z0-9._-]+\/)+[A-Za-z0-9._-]*|[a-z0-9._-]*)$/;
/**
 * A URL-safe draw without a digit: letters with `_` or `-` among them, read as random letters without
 * them, unless every piece is a word in one case or a capitalised one (Prod_Db_Password, CSS-Rule).
 */
function randomLettersDashed(v: string): boolean {
  if (!/[_-]/.test(v)) return false;
  const pieces = v.split(/[_-]+/);
  return !pieces.every((p) => /^[A-Z]*[a-z]*$/.test(p)) && randomLetters(pieces.join(''));
}

function strongKeyValue(value: string): boolean {
  const v = value.trim();
  if (v.length < 16 || v.length > 1000) return false;
  // A leading `/` is a path only with lower-case directories (base64 starts with `/` one time in 64).
  if (
    /\s/.test(v) ||
    /^(?:ssh-|ecdsa-|pk_|sha\d+[:-]|-----BEGIN PUBLIC|\.{1,2}\/|~\/|[a-z]+:\/\/)/i.test(v) ||
    PATH_RE.test(v)
  )
    return false;
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v)) return false; // a UUID: an id
  if (/^[a-z0-9]+(?:[-_.:/][a-z0-9]+)*$/.test(v) && !/[0-9]/.test(v)) return false; // a slug or path
  if (!/[0-9]/.test(v) && !(/[a-z]/.test(v) && /[A-Z]/.test(v))) return false;
  return looksRandom(v);
}
// Quotes may be JSON-escaped (\") when a JSON document is scanned as text.
// NUL separates joined strings: values must stop there.
// The operator may follow an index (`ENV['DB_PASSWORD'] =`, `config["token"] =`), be `?=` or `||=`,
// or come after a type (`API_TOKEN: &str =`, `apiKey: string =`, `val secret: String =`).
const ASSIGNMENT_RE =
  // eslint-disable-next-line no-control-regex
  /([A-Za-z0-9_-]{0,20})(?:\\{0,2}["']|&quot;)?\]?\s{0,3}(?::[ \t]{0,3}&?(?:'static[ \t]+)?[A-Za-z_][A-Za-z0-9_.<>[\]]{0,30}\??[ \t]{1,3}=[ \t](?![=>])|:=|=>|\?{1,2}=|\|\|=|[:=])[ \t]{0,3}(?:\\{0,2}(?:""|'')?(["'`])([^"'`\\\r\n\u0000]{1,2048})\\{0,2}\2|&quot;([^&"'`<>\\\r\n\u0000]{1,2048})&quot;|([^\s"'`<>;,&)\]}\\\u0000]{1,2048}|>[-+]?[0-9]?(?=[ \t]*(?:\r?\n|\\n))))/dy;
const AUTH_RE =
  /(?:[_-]?header)?(?:\\{0,2}["'])?\s{0,3}[:=]\s{0,3}(?:\\{0,2}["'])?(?:bearer|token|basic|digest|bot|apikey|splunk|sso-key|geniekey|ssws)[ \t]{1,3}([A-Za-z0-9._~+/=-]{6,4096})/iy;
// `Bearer <token>`, or a `bearer` key with the token as its value (`"bearer": "..."`, `bearer=...`).
const BEARER_RE =
  /(?:[ \t]{1,3}|\\{0,2}["']?[ \t]{0,3}[:=][ \t]{0,3}\\{0,2}["']?)([A-Za-z0-9._~+/-]{16,4096}=*)/y;
const SIG_RE = /([A-Za-z0-9%+/=]{20,200})/y;
// `sig=` of signed URLs (Azure SAS, Logic Apps / Teams workflow triggers) may be URL-safe base64.
const SIG_URLSAFE_RE = /([A-Za-z0-9%+/=_-]{20,200})/y;
// Presigned URLs: hex or base64 signatures (CloudFront's use ~), and AWS session tokens (long).
const SIG_LONG_RE = /([A-Za-z0-9%+/=_~-]{20,4096})/y;
const PEM_BEGIN_RE = /-----BEGIN /g;
const PEM_HEADER_RE = /-----BEGIN ([A-Z0-9 ]{1,40})-----/y;

export function scanText(text: string): PatternMatch[] {
  return scan(text, true, 0);
}

/** scanText with the keyword regex over the whole text (no windows): the reference for tests. */
export function scanTextWithoutWindows(text: string): PatternMatch[] {
  return scan(text, false, 0);
}

function scan(text: string, windows: boolean, depth: number): PatternMatch[] {
  const out: Array<PatternMatch & { prio: number }> = [];
  if (text.length < 8) return [];

  // The keyword pass runs first: it also finds where the literal anchors of the other passes occur
  // (LiteralHits). What it yields is added where it always was, so the order of the findings (and
  // how overlaps are resolved) is unchanged.
  const ported: PatternMatch[] = [];
  const prose: number[] = [];
  const lits = new LiteralHits();
  // The text as bytes when it is long and ASCII, for the passes that read it character by character
  // (the outermost scan reuses one buffer: a nested scan, of a decoded blob, gets its own).
  const codes = asciiCodes(text, depth === 0);
  scanPortedRules(text, ported, (_t, start, end) => prose.push(start, end), lits, codes);

  scanAnchored(text, out, lits, codes);

  scanKeywords(text, out, windows, lits);

  scanPrivateKeyBlocks(text, out);
  scanUrlCredentials(text, out);
  scanCredentialSyntax(text, out, lits);
  if (prose.length > 0) {
    const digits = new ProseDigits(text, codes);
    for (let k = 0; k < prose.length; k += 2) proseAt(text, prose[k]!, prose[k + 1]!, out, digits);
  }
  for (const m of ported) out.push({ ...m, prio: 1 });
  if (depth === 0) scanEncodedBlobs(text, out, codes);
  return mergeMatches(out);
}

// Secrets re-encoded inside text: a base64 or hex run that decodes to printable text holding a
// secret (a Kubernetes Secret's data, a base64 .env or config, `echo ... | base64 -d`) is masked whole.
// Runs shorter than 24 characters, and runs that decode to binary (digests, SHAs, images), are skipped;
// most are rejected by their first bytes before anything is decoded.
const MIN_BLOB = RUN_MIN;
const MAX_BLOB = RUN_MAX;
// Base64 (standard and URL-safe) alphabet: the 6-bit value + 1, 0 for other characters.
const B64_VALUE = new Uint8Array(128);
{
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < 64; i++) B64_VALUE[alphabet.charCodeAt(i)] = i + 1;
  B64_VALUE[45] = 63; // '-' (URL-safe '+')
  B64_VALUE[95] = 64; // '_' (URL-safe '/')
}

/**
 * The re-encoded secrets of text as scan finds them (over its bytes when `bytes` and the text is long
 * and ASCII, in the WebAssembly module's memory when also `shared`; else with charCodeAt): for tests
 * comparing the paths.
 */
export function scanEncodedRuns(text: string, bytes: boolean, shared = false): PatternMatch[] {
  const out: Array<PatternMatch & { prio: number }> = [];
  scanEncodedBlobs(text, out, bytes ? asciiCodes(text, shared) : null);
  return out.map(({ start, end, kind, reveal }) => ({ start, end, kind, reveal }));
}

function scanEncodedBlobs(
  text: string,
  out: Array<PatternMatch & { prio: number }>,
  codes: Uint8Array | null,
): void {
  const n = text.length;
  const table = B64_VALUE;
  // Every run of MIN_BLOB or more characters holds one of the probed positions (every MIN_BLOB-th);
  // a probe inside a run reads the run to both ends, so text is read about twice as fast as by a
  // character loop (prose words are short) and no regex tries every position.
  // In the outermost scan the bytes are in the WebAssembly module's memory: its `probe` runs this
  // loop up to the next run of MIN_BLOB or more (the same probes, the same bounds).
  const wasm = byteSkipOf(codes);
  for (let probe = MIN_BLOB - 1; probe < n;) {
    let c: number;
    let runStart: number;
    let runEnd: number;
    if (wasm !== null) {
      probe = wasm.probe(probe, n);
      if (probe < 0) break;
      runStart = wasm.runStart();
      runEnd = wasm.runEnd();
    } else {
      c = codes !== null ? codes[probe]! : text.charCodeAt(probe);
      if (c >= 128 || table[c] === 0) {
        probe += MIN_BLOB;
        continue;
      }
      runStart = probe;
      while (runStart > 0 && probe - runStart < MAX_BLOB) {
        c = codes !== null ? codes[runStart - 1]! : text.charCodeAt(runStart - 1);
        if (c >= 128 || table[c] === 0) break;
        runStart--;
      }
      runEnd = probe + 1;
      while (runEnd < n && runEnd - runStart <= MAX_BLOB) {
        c = codes !== null ? codes[runEnd]! : text.charCodeAt(runEnd);
        if (c >= 128 || table[c] === 0) break;
        runEnd++;
      }
    }
    if (runEnd - runStart > MAX_BLOB) {
      // Too long to decode: skip to the run's end, so no later probe reads it back again (a
      // megabyte of one base64 run cost a 64 K look back per probe, quadratic).
      while (runEnd < n) {
        c = text.charCodeAt(runEnd);
        if (c >= 128 || table[c] === 0) break;
        runEnd++;
      }
      probe = runEnd + MIN_BLOB;
      continue;
    }
    probe = runEnd + MIN_BLOB;
    if (runEnd - runStart < MIN_BLOB || !printableStart(text, runStart)) continue;
    let end = runEnd;
    while (end < n && end - runEnd < 2 && text.charCodeAt(end) === 61) end++; // '=' padding
    const decoded = decodeBlob(text.slice(runStart, end));
    if (decoded === null) continue;
    // Decoded JSON (an OAuth state, a JWT-like envelope) yields only typed findings (provider tokens,
    // private keys): its csrf_token and nonce fields are not credentials.
    const json = /^\s*[{[]/.test(decoded);
    const found = scan(decoded, true, 1).filter(
      (f) =>
        !json ||
        f.kind !== 'secret-assignment' ||
        CREDENTIAL_FIELD_BEFORE_RE.test(decoded.slice(Math.max(0, f.start - 24), f.start)),
    );
    if (found.length > 0) out.push({ start: runStart, end, kind: 'encoded-secret', reveal: 0, prio: 1 });
  }
}

// In decoded JSON, the fields that hold credentials (a Docker config's auth, a password) rather than
// an OAuth state's csrf_token or nonce.
const CREDENTIAL_FIELD_BEFORE_RE =
  /"(?:auth|password|passwd|identitytoken|secret|client_secret|private_key|api_key|apikey)"\s{0,3}:\s{0,3}"$/i;

const printableByte = (b: number): boolean => (b >= 32 && b < 127) || b === 10 || b === 13 || b === 9;
const hexValue = (c: number): number =>
  c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;

/** Whether the first bytes of the run, read as hex and as base64, can be text (cheap pre-check). */
function printableStart(text: string, at: number): boolean {
  let hex = true;
  for (let k = 0; k < 8 && hex; k += 2) {
    const hi = hexValue(text.charCodeAt(at + k));
    const lo = hexValue(text.charCodeAt(at + k + 1));
    hex = hi >= 0 && lo >= 0 && printableByte(hi * 16 + lo);
  }
  if (hex) return true;
  // 8 base64 characters are 6 bytes.
  for (let k = 0; k < 8; k += 4) {
    const a = B64_VALUE[text.charCodeAt(at + k)]! - 1;
    const b = B64_VALUE[text.charCodeAt(at + k + 1)]! - 1;
    const c = B64_VALUE[text.charCodeAt(at + k + 2)]! - 1;
    const d = B64_VALUE[text.charCodeAt(at + k + 3)]! - 1;
    if (
      !printableByte((a << 2) | (b >> 4)) ||
      !printableByte(((b & 15) << 4) | (c >> 2)) ||
      !printableByte(((c & 3) << 6) | d)
    )
      return false;
  }
  return true;
}

/** The printable text a base64 (standard or URL-safe) or hex run decodes to, or null. */
function decodeBlob(blob: string): string | null {
  let bytes: Buffer;
  if (/^(?:[0-9a-f]{2})+$/.test(blob) || /^(?:[0-9A-F]{2})+$/.test(blob)) {
    if (blob.length < 32) return null;
    bytes = Buffer.from(blob, 'hex');
  } else {
    const body = blob.replace(/=+$/, '');
    if (body.length % 4 === 1) return null;
    bytes = Buffer.from(body, /[-_]/.test(body) ? 'base64url' : 'base64');
  }
  if (bytes.length < 16) return null;
  let printable = 0;
  for (const b of bytes) if ((b >= 32 && b < 127) || b === 10 || b === 13 || b === 9) printable++;
  return printable >= bytes.length * 0.95 ? bytes.toString('latin1') : null;
}

// Every keyword rule but `bearer` needs an assignment operator (':' or '=') right after the key:
// `password_v2 = ...`, `"Authorization": ...`, `?sig=...`. So the keyword regex, the costliest scan
// (its first characters are common letters), runs only on short windows that end at such an
// operator and start at the word before it, and on windows around the word "bearer". Operators are
// found with indexOf (near free). The windows hold every keyword that could match, in order, and
// the scan state (where the next keyword may start) carries across them, so the matches are those
// of a scan over the whole text.
// Same as /bearer/gi (non-unicode case folding is ASCII only here), and faster in V8. 'bearer' is a
// literal of the keyword pass, which records where it first occurs in any case: the search starts
// there, or is skipped when the word is absent (most results).
const BEARER_WORD_RE = /[Bb][Ee][Aa][Rr][Ee][Rr]/g;
// Between a keyword and its operator: up to 20 word characters, then at most 2 backslashes, a
// quote and 3 spaces (6 non-word characters). Keywords are at most 15 characters long.
const MAX_NON_WORD_BEFORE_OP = 6;
const MAX_WORD_RUN_BEFORE_OP = 64;

// A window costs about as much as scanning this many characters (slice and regex call), and finding
// an operator and the word before it about this many.
const WINDOW_COST = 64;
const OP_COST = 16;

const SAMPLE = 2048;
/**
 * Estimates from four samples whether operators are so frequent (JSON text: a ':' after every key)
 * that windows would cost more than the whole scan, so building them is not even tried.
 */
function denseOperators(text: string): boolean {
  if (text.length < 8 * SAMPLE) return false;
  let ops = 0;
  for (let k = 0; k < 4; k++) {
    const from = Math.floor(((text.length - SAMPLE) * k) / 3);
    for (let i = from; i < from + SAMPLE; i++) {
      const c = text.charCodeAt(i);
      if (c === 58 || c === 61) ops++;
    }
  }
  // Each operator costs OP_COST, and most open a window.
  return ops * (OP_COST + WINDOW_COST) > 4 * SAMPLE * 0.75;
}

/**
 * Windows [start, end) of text that can hold a keyword match, sorted and merged, as flat pairs; the
 * whole text as one window when windows would cost more than scanning it all (JSON text, where every
 * key is followed by ':', or runs of operators).
 */
function keywordWindows(text: string, lits: LiteralHits): number[] {
  const whole = [0, text.length];
  if (denseOperators(text)) return whole;
  const budget = text.length * 0.75;
  let cost = 0;
  const starts: number[] = [];
  const ends: number[] = [];
  const addOp = (q: number): boolean => {
    let j = q;
    for (let k = 0; k < MAX_NON_WORD_BEFORE_OP && j > 0 && !isWordCode(text.charCodeAt(j - 1)); k++) j--;
    const runEnd = j;
    const limit = Math.max(0, j - MAX_WORD_RUN_BEFORE_OP);
    while (j > limit && isWordCode(text.charCodeAt(j - 1))) j--;
    cost += OP_COST;
    // No keyword fits in fewer than 3 word characters (the shortest are pwd and sig), but for `pw`.
    if (
      runEnd - j < 3 &&
      !(runEnd - j === 2 && (text.charCodeAt(j) | 32) === 112 && (text.charCodeAt(j + 1) | 32) === 119)
    )
      return cost < budget;
    const ws = j > 0 ? j - 1 : 0; // one more character: the '?' or '&' of `?sig=`
    starts.push(ws);
    ends.push(q + 1);
    cost += WINDOW_COST + q + 1 - ws;
    return cost < budget;
  };
  // Operators in text order: merge the ':' and '=' positions.
  let colon = text.indexOf(':');
  let equals = text.indexOf('=');
  while (colon >= 0 || equals >= 0) {
    if (equals < 0 || (colon >= 0 && colon < equals)) {
      if (!addOp(colon)) return whole;
      colon = text.indexOf(':', colon + 1);
    } else {
      if (!addOp(equals)) return whole;
      equals = text.indexOf('=', equals + 1);
    }
  }
  let sorted = true;
  const bearerAt = lits.firstOf('bearer');
  BEARER_WORD_RE.lastIndex = bearerAt < 0 ? text.length : bearerAt;
  for (let m = bearerAt < 0 ? null : BEARER_WORD_RE.exec(text); m !== null; m = BEARER_WORD_RE.exec(text)) {
    starts.push(m.index);
    ends.push(m.index + 6);
    sorted = false;
    cost += WINDOW_COST + 6;
    if (cost >= budget) return whole;
  }
  let order: number[] | null = null;
  if (!sorted) {
    order = starts.map((_, i) => i);
    order.sort((a, b) => starts[a]! - starts[b]!);
  }
  const out: number[] = [];
  for (let i = 0; i < starts.length; i++) {
    const k = order ? order[i]! : i;
    const s = starts[k]!;
    const e = ends[k]!;
    const n = out.length;
    if (n > 0 && s <= out[n - 1]!) {
      if (e > out[n - 1]!) out[n - 1] = e;
    } else out.push(s, e);
  }
  return out;
}

function scanKeywords(
  text: string,
  out: Array<PatternMatch & { prio: number }>,
  useWindows: boolean,
  lits: LiteralHits,
): void {
  const windows = useWindows ? keywordWindows(text, lits) : [0, text.length];
  let skipUntil = 0; // where the next keyword may start (after the last match's value)
  for (let w = 0; w < windows.length; w += 2) {
    const ws = windows[w]!;
    const we = windows[w + 1]!;
    if (we <= skipUntil) continue;
    const slice = text.slice(ws, we);
    KEYWORD_RE.lastIndex = Math.max(0, skipUntil - ws);
    for (let m = KEYWORD_RE.exec(slice); m !== null; m = KEYWORD_RE.exec(slice)) {
      const end = matchKeyword(text, ws + m.index, m[0], out);
      if (end > 0) {
        skipUntil = end;
        if (end - ws > KEYWORD_RE.lastIndex) KEYWORD_RE.lastIndex = end - ws;
      }
    }
  }
}

/**
 * A cheap necessary condition of ASSIGNMENT_RE at `from`: at most 20 word characters, then ':' or '='
 * within the next 6 characters (2 backslashes, a quote, 3 spaces).
 */
function operatorFollows(text: string, from: number): boolean {
  let i = from;
  const wordEnd = Math.min(text.length, from + 21);
  while (i < wordEnd && isWordCode(text.charCodeAt(i))) i++;
  const end = Math.min(text.length, i + MAX_NON_WORD_BEFORE_OP + 1);
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 58 || c === 61) return true;
  }
  return false;
}

const ARN_BEFORE_RE = /arn:aws[a-z-]*:secretsmanager:[a-z0-9-]*:[0-9]*:$/;

/** Applies the rule of one keyword match; returns the end of what it masked, or -1. */
function matchKeyword(
  text: string,
  at: number,
  word: string,
  out: Array<PatternMatch & { prio: number }>,
): number {
  const kw = word.toLowerCase();
  const after = at + word.length;
  if (kw === 'authorization') {
    AUTH_RE.lastIndex = after;
    const a = AUTH_RE.exec(text);
    if (
      a &&
      // a call that makes the value (`Basic base64(username:password)` in docs) is not one
      text.charCodeAt(AUTH_RE.lastIndex) !== 40 &&
      !isPlaceholder(a[1]!) &&
      looksRandom(a[1]!) &&
      (/[0-9]/.test(a[1]!) || a[1]!.length >= 20)
    ) {
      const end = AUTH_RE.lastIndex;
      out.push({ start: end - a[1]!.length, end, kind: 'authorization-header', reveal: 0, prio: 1 });
      return end;
    }
    return -1;
  }
  if (kw === 'bearer') {
    BEARER_RE.lastIndex = after;
    const a = BEARER_RE.exec(text);
    if (a && !isPlaceholder(a[1]!) && looksRandom(a[1]!)) {
      const end = BEARER_RE.lastIndex;
      out.push({ start: end - a[1]!.length, end, kind: 'bearer-token', reveal: 0, prio: 1 });
      return end;
    }
    return -1;
  }
  if (kw.endsWith('=')) {
    const re = kw.endsWith('sig=') ? SIG_URLSAFE_RE : kw.endsWith('key=') ? SIG_RE : SIG_LONG_RE;
    re.lastIndex = after;
    const a = re.exec(text);
    if (a && looksRandom(a[1]!))
      out.push({ start: after, end: re.lastIndex, kind: 'sas-signature', reveal: 0, prio: 1 });
    return -1; // the scan goes on after the keyword
  }
  if (!operatorFollows(text, after)) return -1; // prose: "the token expired"
  // `secret:` inside an AWS Secrets Manager ARN names the secret, it does not assign one.
  if (
    kw === 'secret' &&
    text.charCodeAt(at - 1) === 58 &&
    ARN_BEFORE_RE.test(text.slice(Math.max(0, at - 80), at))
  )
    return -1;
  ASSIGNMENT_RE.lastIndex = after;
  const a = ASSIGNMENT_RE.exec(text);
  if (!a || !KEY_SUFFIX_OK.test(a[1]!)) return -1;
  // Group 3: in quotes; 4: in HTML-escaped quotes (`&quot;X&quot;`, rendered Markdown), judged
  // the same way; 5: unquoted.
  const group = a[3] !== undefined ? 3 : a[4] !== undefined ? 4 : 5;
  const quoted = group !== 5;
  let value = a[group]!;
  const start = a.indices![group]![0];
  let end = a.indices![group]![1];
  // An unquoted value stops at `&` and at `<>)]}`; inside a value they are a drawn password's
  // symbols (DB_PASSWORD=k&x9..., `password: w9jT>a*XyC6`), unless the name is a query parameter.
  if (!quoted) {
    const to = unquotedValueEnd(text, at, end, start + 2048);
    if (to !== end) {
      end = to;
      value = text.slice(start, end);
    }
  }
  // A YAML block scalar (`password: |`): the value is on the lines below.
  if (!quoted && /^[|>][-+]?[0-9]?$/.test(value)) return blockScalar(text, a.indices![5]![1], at, kw, out);
  if (!acceptAssignedValue(value, quoted)) return -1;
  if (
    (kw.endsWith('key') || kw.endsWith('pat') || kw.endsWith('salt')) &&
    (kw[0] === '_' || kw[0] === '-' || kw[0] === '.')
  ) {
    // *_KEY: the name before decides (cache_key, primary_key are not secrets), and the value must
    // look like key material.
    let w = at;
    while (w > 0 && at - w < 64 && isWordCode(text.charCodeAt(w - 1))) w--;
    if (KEY_NAME_DENY.test(text.slice(w, at)) || !strongKeyValue(value)) return -1;
  } else if (kw === 'pass' || kw === 'pw') {
    // Abbreviations: only as the end of a name (DB_PASS, SMTP_PW), not inside a word (bypass, compass);
    // the `n` of a `\n` escape before is a line start (`pw: X` on its own line of a JSON string).
    const c = at > 0 ? text.charCodeAt(at - 1) : 0;
    const lower = (x: number) => x >= 97 && x <= 122;
    if (lower(c) && !(text.charCodeAt(at) >= 65 && text.charCodeAt(at) <= 90) && !afterEscape(text, at))
      return -1;
  } else if (kw.startsWith('cred') && !strongKeyValue(value) && value.length < 12) return -1;
  out.push({ start, end, kind: 'secret-assignment', reveal: 0, prio: 1 });
  return end;
}

/** `<`, `>`, `)`, `]`, `}`: where the unquoted value's grammar stops. */
function isBracketCode(c: number): boolean {
  return c === 60 || c === 62 || c === 41 || c === 93 || c === 125;
}
/** A character that can go on a value (not white space, a quote, a separator, a NUL or the end). */
function valueGoesOn(c: number): boolean {
  return c > 32 && c !== 34 && c !== 39 && c !== 96 && c !== 59 && c !== 44 && c !== 92;
}

/**
 * Whether the name that ends at `at` is a URL query parameter (`?password=`, `&token=`: 1) or one of
 * `;`-separated pairs (matrix parameters, a connection string's `;Password=`: 2), else 0.
 */
function inQuery(text: string, at: number): number {
  let w = at;
  while (w > 0 && at - w < 64 && isWordCode(text.charCodeAt(w - 1))) w--;
  const c = w > 0 ? text.charCodeAt(w - 1) : 0;
  return c === 63 || c === 38 ? 1 : c === 59 ? 2 : 0;
}
// After `;`-separated pairs, an `&` that starts a next `name=` is a separator too.
const AMP_PAIR_RE = /&[A-Za-z_][\w.-]{0,30}=/y;

// eslint-disable-next-line no-control-regex -- NUL separates joined strings
const VALUE_STOP_RE = /[\s"'`<>;,&)\]}\\\u0000]/g;
/**
 * Where an unquoted value that the grammar stopped at `end` really ends: outside a query string, an
 * `&` followed by a value character (not `&&`, white space, an HTML entity) and a bracket `<>)]}`
 * followed by one join the value, which goes on to the next stop.
 */
function unquotedValueEnd(text: string, at: number, end: number, limit: number): number {
  const first = text.charCodeAt(end);
  if (first !== 38 && !isBracketCode(first)) return end;
  const query = inQuery(text, at);
  if (query === 1) return end;
  while (end < limit) {
    const c = text.charCodeAt(end);
    const next = text.charCodeAt(end + 1);
    if (c === 38) {
      AMP_PAIR_RE.lastIndex = end;
      if (
        (query === 2 && AMP_PAIR_RE.test(text)) ||
        Number.isNaN(next) ||
        next === 38 ||
        next <= 32 ||
        /^(?:amp|lt|gt|quot|#\d{1,5});/.test(text.slice(end + 1, end + 8))
      )
        break;
    } else if (!isBracketCode(c) || !valueGoesOn(next)) break;
    VALUE_STOP_RE.lastIndex = end + 1;
    const m = VALUE_STOP_RE.exec(text);
    end = Math.min(m === null ? text.length : m.index, limit);
  }
  return end;
}

/**
 * The lines of a YAML block scalar after `key: |` (or `>`, `|-`, `>+` ...): each more indented line
 * (the break may be a newline or, in serialised JSON, the escape \n; a line may carry a diff, quote
 * or log-timestamp prefix) is masked when it reads like a value. Returns the end of the last one, or -1.
 */
function blockScalar(
  text: string,
  from: number,
  keyAt: number,
  kw: string,
  out: Array<PatternMatch & { prio: number }>,
): number {
  const [keyLine] = lineStartBefore(text, keyAt);
  // Indentation counts spaces and tabs only (a list dash, a diff or quote marker does not indent).
  const spaces = (prefix: string): number => prefix.replace(/[^ \t]/g, '').length;
  const keyIndent = spaces(BLOCK_LINE_RE.exec(text.slice(Math.max(0, keyLine), keyAt + 1))?.[1] ?? '');
  let p = from;
  let last = -1;
  for (let n = 0; n < 50; n++) {
    while (
      p < text.length &&
      (text.charCodeAt(p) === 32 || text.charCodeAt(p) === 9 || text.charCodeAt(p) === 13)
    )
      p++;
    if (text.charCodeAt(p) === 10) p++;
    else if (text.charCodeAt(p) === 92 && text.charCodeAt(p + 1) === 110) p += 2;
    else break;
    const m = BLOCK_LINE_RE.exec(text.slice(p, p + 4200));
    if (!m || spaces(m[1]!) <= keyIndent) break;
    const value = m[2]!.trimEnd();
    const start = p + m[1]!.length;
    p = start + m[2]!.length;
    if (value === '') break;
    const keyLike = kw.endsWith('key') || kw.endsWith('pat') || kw.endsWith('salt');
    if (!acceptAssignedValue(value, true) || (keyLike && !strongKeyValue(value)) || !looksRandom(value))
      break;
    pushValue(out, start + value.length, value, 'secret-assignment');
    last = start + value.length;
  }
  return last;
}
const BLOCK_LINE_RE =
  // eslint-disable-next-line no-control-regex -- NUL separates joined strings
  /^([ \t>+-]*(?:\d{4}-\d\d-\d\dT[0-9:.]{8,20}Z[ \t]{1,4})?[ \t>+-]*)([^\n\\"\u0000]{1,4096})/;

// Prose: a secret word without an assignment operator, then the value, on the same line:
// "the admin password is X", "my Gitea token is X", "use password X", "| password | `X` |",
// "ngrok config add-authtoken X". The value must read like a credential (letters and digits, random),
// and the words between may not say that what follows is an id, a name or a hash.
const PROSE_RE =
  // eslint-disable-next-line no-control-regex -- NUL separates joined strings
  /[a-z]{0,3}(?:([^\n\u0000"|=:]{0,40}?)[ \t](?:is|was|are|to|as|be)(?::|[ \t]{0,2}[-=]>)?|[ \t]{0,3}(\||\*\*))?[ \t]{1,3}(?:\\?["'`*]){0,2}([^\s"'`<>()[\]{},;|*\\\u0000][^\s"'`,;|\\\u0000]{7,199})/y;
const PROSE_GAP_DENY =
  /(?:^|[^a-z])(?:ids?|fingerprints?|names?|hash(?:es)?|sha\d*|digest|versions?|url|path|file|length|size|type|format|count|prefix|suffix|scopes?|expir\w*|header|field|variable|env|public|rotat\w*|revok\w*|stored|saved|set|hidden|masked|redacted|valid|invalid|missing|required|empty|not|never)(?:$|[^a-z])/i;
/**
 * The first check of proseAt over one text: whether a digit follows a keyword on its line (or in its
 * string) within reach, before a white space more than 60 characters on. Read character by
 * character after every keyword, that was up to 260 characters per keyword (the prose of issue
 * bodies has one every 60 characters or so). Instead, the next digit, the next line end, NUL and
 * unescaped quote are found with native searches (a regex, indexOf) and remembered: the keywords come
 * in text order, so one search serves every keyword before the position it found, and the searches
 * together read the text about once. Characters are read one by one only between a keyword and a
 * digit on its line, to look for a white space.
 */
export class ProseDigits {
  // For each search: the position it started from, and what it found there (text.length: nothing).
  private readonly from = [-1, -1, -1, -1];
  private readonly at = [-1, -1, -1, -1];

  constructor(
    private readonly text: string,
    private readonly codes: Uint8Array | null,
  ) {}

  /** The first position from `from` on where search k finds its character (text.length: none). */
  private next(k: number, from: number): number {
    // Still valid when asked from a later position that is not past what was found.
    if (from >= this.from[k]! && from <= this.at[k]!) {
      this.from[k] = from;
      return this.at[k]!;
    }
    const text = this.text;
    let p: number;
    if (k === 0) {
      const wasm = byteSkipOf(this.codes);
      if (wasm !== null) p = from < text.length ? wasm.digit(from, text.length) : -1;
      else {
        DIGIT_RE.lastIndex = from;
        p = DIGIT_RE.exec(text)?.index ?? -1;
      }
    } else if (k === 1) p = text.indexOf('\n', from);
    else if (k === 2) p = text.indexOf(SEP, from);
    else {
      // an unescaped quote ends a JSON string (the character before it is not a backslash)
      p = text.indexOf('"', from);
      while (p > 0 && text.charCodeAt(p - 1) === 92) p = text.indexOf('"', p + 1);
    }
    this.from[k] = from;
    this.at[k] = p < 0 ? text.length : p;
    return this.at[k]!;
  }

  /**
   * Whether some j in [end, end + 260) holds a digit, with no line end, NUL or unescaped quote in
   * [end, j) and no space or tab in [end + 61, j).
   */
  after(end: number): boolean {
    const digit = this.next(0, end);
    if (digit >= Math.min(this.text.length, end + 260)) return false;
    if (this.next(1, end) < digit || this.next(2, end) < digit || this.next(3, end) < digit) return false;
    for (let j = end + 61; j < digit; j++) {
      const c = this.codes !== null ? this.codes[j]! : this.text.charCodeAt(j);
      if (c === 32 || c === 9) return false;
    }
    return true;
  }
}
const DIGIT_RE = /[0-9]/g;

function proseAt(
  text: string,
  start: number,
  end: number,
  out: Array<PatternMatch & { prio: number }>,
  digits: ProseDigits,
): void {
  // Every value holds a digit and ends on the line (or in the string), at most ~260 characters on,
  // and starts within ~60 characters (gap, verb, quotes) with no white space: most prose stops here.
  // A letters-only value is also tried when a digit follows later on the line but the value the
  // digit path reads is none ("the password is X (expires in 30 days)").
  if (!digits.after(end) || !proseDigitAt(text, start, end, out)) {
    const c = text.charCodeAt(end);
    if (c === 32 || c === 9 || c === 58) proseLettersAt(text, start, end, out);
  }
}

/** The digit-bearing value after a prose keyword; whether one was taken. */
function proseDigitAt(
  text: string,
  start: number,
  end: number,
  out: Array<PatternMatch & { prio: number }>,
): boolean {
  PROSE_RE.lastIndex = end;
  const m = PROSE_RE.exec(text);
  if (!m) return false;
  const gap = m[1];
  if (gap !== undefined && PROSE_GAP_DENY.test(gap)) return false;
  const kw = text.slice(start, end).toLowerCase();
  // Without a verb or a table cell, only the password words and `authtoken` (ngrok's CLI) take the
  // next word as the value: "token tok_..." and "key k-..." name ids as often as secrets.
  if (
    gap === undefined &&
    m[2] === undefined &&
    !(
      kw.startsWith('pass') ||
      (kw === 'token' && /authtoken$/i.test(text.slice(Math.max(0, start - 4), end))) ||
      // "apikey X", "API key X": key material of 20+ characters (checked below as for `key`)
      (kw === 'key' &&
        /(?<![A-Za-z])api[ _-]?$/i.test(text.slice(Math.max(0, start - 5), start)) &&
        m[3]!.length >= 20) ||
      // a value in backticks right after the word ("the secret `X`", "token `X`"): key material
      // of 16+ characters, not a path or a variable's name
      (text.charCodeAt(m.index + m[0].length - m[3]!.length - 1) === 96 &&
        text.charCodeAt(m.index + m[0].length) === 96 &&
        !m[3]!.includes('/') &&
        strongKeyValue(m[3]!))
    )
  )
    return false;
  let value = m[3]!;
  // A drawn value holds brackets and `*`; closing ones at its end are the sentence's (`X)`, `**X**`).
  value = value.replace(/[.,:!?*)\]}>]+$/, '');
  if (!proseValueOk(value)) return false;
  // `access`, `api` and `auth` alone name logs, versions and OAuth states; their credentials are
  // reached through the word after them (API key, auth token).
  if (kw === 'access' || kw === 'api' || kw === 'auth') return false;
  if (kw === 'token' && PROSE_TOKEN_BEFORE_DENY.test(text.slice(Math.max(0, start - 24), start)))
    return false;
  if (kw === 'key') {
    // "key" alone names too much (ssh key, cache key, key id): the word before must not be a lookup
    // and the value must be key material.
    const before = text.slice(Math.max(0, start - 24), start);
    if (PROSE_KEY_BEFORE_DENY.test(before) || !strongKeyValue(value)) return false;
  }
  const valueEnd = m.index + m[0].length - (m[3]!.length - value.length);
  pushValue(out, valueEnd, value, 'secret-assignment');
  return true;
}
/**
 * A prose value of letters only, which the digit check above passes by (16 characters of base62 are
 * letters only one draw in twenty), or of letters and symbols: "the runner token is uOjUTovUyLYQRDiutMBJ",
 * "| DB_PASSWORD | X |", "the app secret is kDADIOW=@N_r%xhpc!Ot-Bn".
 * Only right after a password, secret or token word and its verb, colon or table cell, and only when
 * the letters read as random (randomLetters: both cases mixed as no word or identifier mixes them).
 */
function proseLettersAt(
  text: string,
  start: number,
  end: number,
  out: Array<PatternMatch & { prio: number }>,
): void {
  // What must follow, told from the next characters before anything is allocated: `:`, or a blank
  // and then `is `, `was ` or `|`.
  let c = text.charCodeAt(end);
  if (c !== 58) {
    if (c !== 32 && c !== 9) return;
    let k = end + 1;
    c = text.charCodeAt(k);
    if (c === 32 || c === 9) c = text.charCodeAt(++k);
    if (
      c !== 124 && // |
      !(c === 105 && text.charCodeAt(k + 1) === 115) && // is
      !(c === 119 && text.charCodeAt(k + 1) === 97 && text.charCodeAt(k + 2) === 115) // was
    )
      return;
  }
  const kw = text.slice(start, end).toLowerCase();
  if (!(
    kw.startsWith('pass') ||
    kw === 'pwd' ||
    kw === 'secret' ||
    kw === 'token' ||
    // "the API key is X", "| SECRET_KEY | X |": a key named by a secret's word
    (kw === 'key' && PROSE_LETTERS_KEY_BEFORE.test(text.slice(Math.max(0, start - 12), start)))
  ))
    return;
  PROSE_LETTERS_RE.lastIndex = end;
  const m = PROSE_LETTERS_RE.exec(text);
  // letters with a generator's symbols among them: the letters must read as random
  if (!m || !randomLetters(m[2]!.replace(/[^A-Za-z]+/g, ''))) return;
  if (kw === 'token' && PROSE_TOKEN_BEFORE_DENY.test(text.slice(Math.max(0, start - 24), start))) return;
  pushValue(out, m.index + m[0].length - m[1]!.length, m[2]!, 'secret-assignment');
}
const PROSE_LETTERS_KEY_BEFORE =
  /(?:^|[^A-Za-z])(?:api|secret|encryption|session|master|access|private|client|app)[ _-]?$/i;
const PROSE_LETTERS_RE =
  /(?:[ \t]{1,2}(?:is|was)[ \t]{1,2}|[ \t]{0,2}:[ \t]{1,2}|[ \t]{1,2}\|[ \t]{1,2})(["'`]?)([A-Za-z][A-Za-z!@#%^&*_+=~-]{11,63})\1(?=[\s.,;!?)|]|$)/y;
// Tokens that are cursors or ids: "the next page token is ...".
const PROSE_TOKEN_BEFORE_DENY =
  /(?:next|page|continuation|pagination|cursor|sync|state|request|trace|span|test|fixture|stripe|card|payment|sort)[ \t_-]*$/i;
const PROSE_KEY_BEFORE_DENY =
  /(?:public|primary|foreign|sort|partition|cache|idempotency|publishable|site|ssh|gpg|pgp|host|signing|lookup|license|product|registry|dedup|correlation|trace|request|storage|bucket|object|index|cursor|page|config|feature|event|message|i18n|translation|deploy|rsa|ed25519|ecdsa|the public)[ \t_-]*$/i;

/** A value in prose is taken when it reads like a credential, not like a word, number, path or id. */
function proseValueOk(v: string): boolean {
  if (v.length < 8 || v.length > 200 || isPlaceholder(v)) return false;
  if (!/[0-9]/.test(v) || !/[A-Za-z]/.test(v)) return false;
  if (/^(?:[a-z][a-z0-9+.-]*:\/\/|\.{1,2}\/|~\/|sha\d+[:-]|v?\d+\.\d+)/i.test(v) || PATH_RE.test(v))
    return false;
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v)) return false;
  // Object ids of payment and chat APIs (Stripe tok_, pm_, cus_ ...): ids, not credentials.
  if (
    /^(?:tok|pm|pi|cus|ch|src|seti|card|ba|acct|sub|in|price|prod|evt|txn|re|po|py|si|cs|btok)_[A-Za-z0-9]{8,}$/.test(
      v,
    )
  )
    return false;
  // a name with a short number (staging-2, node12); letters and 3+ digits read as a password (hunter2024)
  if (/^[a-z]+(?:[-_][a-z]+)*-?\d{1,2}$/.test(v)) return false;
  return looksRandom(v);
}

/** Whether a value assigned to a secret-like key is worth masking. */
export function acceptAssignedValue(raw: string, quoted: boolean): boolean {
  const value = raw.trim();
  if (value.length < 6 || isPlaceholder(value)) return false;
  if (value.includes(' ') && !quoted) return false;
  // A relative or home path (`--from-file=password=./db-password.txt`) names where a secret is; so
  // does an absolute one of lower-case directories (`pwd: /home/runner/work/app`, the shell's cwd).
  if (!quoted && /^(?:(?:\.{1,2}|~)\/[\w./-]*|\/(?:[a-z0-9._-]+\/)+[\w.-]*)$/.test(value)) return false;
  // Unquoted pure words are prose or identifiers ("token: required"), not credentials; random
  // mixed-case letters (a 16-letter API secret) are not words.
  if (!quoted && /^[A-Za-z_-]+$/.test(value) && !randomLetters(value) && !randomLettersDashed(value))
    return false;
  if (quoted && /^[a-z]{1,11}$/.test(value)) return false;
  return true;
}

function scanPrivateKeyBlocks(text: string, out: Array<PatternMatch & { prio: number }>): void {
  let from = 0;
  let nextEnd = -2; // cached position of the next '-----END ' (monotonic, so the scan stays linear)
  let nextSep = -2;
  let nextQuote = -2; // a block never spans a quote (keeps it inside one JSON string)
  for (;;) {
    // A literal regex is markedly faster than indexOf for this dash-led needle in V8.
    PEM_BEGIN_RE.lastIndex = from;
    const found = PEM_BEGIN_RE.exec(text);
    if (!found) return;
    const at = found.index;
    PEM_HEADER_RE.lastIndex = at;
    const h = PEM_HEADER_RE.exec(text);
    from = at + 11;
    if (!h || !h[1]!.includes('PRIVATE KEY')) continue;
    if (nextSep !== -1 && nextSep < at) nextSep = text.indexOf(SEP, at);
    if (nextQuote !== -1 && nextQuote < at) nextQuote = text.indexOf('"', at);
    const limit = Math.min(nextSep < 0 ? text.length : nextSep, nextQuote < 0 ? text.length : nextQuote);
    if (nextEnd !== -1 && nextEnd < at) nextEnd = text.indexOf('-----END ', at);
    let end = limit;
    if (nextEnd >= 0 && nextEnd < limit) {
      const close = text.indexOf('-----', nextEnd + 9);
      end = close >= 0 && close < limit && close - nextEnd < 80 ? close + 5 : limit;
    }
    const kind = h[1]!.includes('PGP')
      ? 'pgp-private-key'
      : h[1]!.includes('OPENSSH')
        ? 'openssh-private-key'
        : 'private-key';
    out.push({ start: at, end, kind, reveal: 0, prio: 2 });
    from = end;
  }
}

// Userinfo: after "://", up to '@' before any path, query, space or quote character (bounded).
// eslint-disable-next-line no-control-regex -- NUL separates joined strings
const URL_USERINFO_RE = /:\/\/([^\s/?@"'<>\\`\u0000]{1,256})@/y;

function scanUrlCredentials(text: string, out: Array<PatternMatch & { prio: number }>): void {
  // indexOf finds each "://" far faster than a regex scan; the sticky regex then reads the userinfo.
  // The scheme must end in a letter or digit; no '://' can sit inside a userinfo (it has no '/'), so
  // checking that first skips the regex without changing what is found.
  // The userinfo ends at the first '@' after "://", at most 256 characters on: the position of the
  // next '@' is cached (it only moves forward), so text without any '@' is never read by the regex.
  let nextAt = -2;
  for (let pos = text.indexOf('://'); pos >= 0;) {
    const at = pos;
    if (nextAt !== -1 && nextAt < at + 3) nextAt = text.indexOf('@', at + 3);
    if (nextAt === -1) return;
    const c = at > 0 ? text.charCodeAt(at - 1) : 0;
    if (nextAt - (at + 3) > 256 || !((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57))) {
      pos = text.indexOf('://', at + 1);
      continue;
    }
    URL_USERINFO_RE.lastIndex = at;
    const m = URL_USERINFO_RE.exec(text);
    pos = text.indexOf('://', m === null ? at + 1 : URL_USERINFO_RE.lastIndex);
    if (m === null) {
      slashedPassword(text, at, out);
      continue;
    }
    const userinfo = m[1]!;
    const userStart = at + 3;
    const colonRel = userinfo.indexOf(':');
    let m2: [number, number] | null;
    let start = -1;
    let end = userStart + userinfo.length;
    if (colonRel >= 0) {
      const user = userinfo.slice(0, colonRel);
      const pass = userinfo.slice(colonRel + 1);
      if (pass === 'x-oauth-basic' || pass === '') {
        if (user.length >= 16 && looksRandom(user)) [start, end] = [userStart, userStart + colonRel];
      } else if (!isPlaceholder(decodeSafe(pass)) && !/^(?:pass|pwd|secret|token)$/i.test(pass)) {
        start = userStart + colonRel + 1;
      }
    } else if ((m2 = userAtDomain(text, URL_USERINFO_RE.lastIndex)) !== null) {
      // An e-mail address as the user, its '@' not encoded (SMTP DSNs: smtp://me@example.com:pass@host).
      [start, end] = m2;
      pos = text.indexOf('://', end);
    } else if (
      userinfo.length >= 20 &&
      looksRandom(userinfo) &&
      /[0-9]/.test(userinfo) &&
      !isPlaceholder(userinfo)
    ) {
      start = userStart;
    }
    if (start >= 0) out.push({ start, end, kind: 'url-credentials', reveal: 0, prio: 1 });
  }
}

// `user:password@host` whose password holds a `/` (base64 from `openssl rand -base64`, written raw):
// the userinfo regex stops at the `/`. Not a port and a path (`host:8080/a@b`): the password's part
// before its first `/` is not all digits, and the whole reads as random with a letter and a digit.
const URL_SLASHED_PASSWORD_RE =
  // eslint-disable-next-line no-control-regex -- NUL separates joined strings
  /:\/\/[A-Za-z0-9._~%+-]{1,64}:([^\s?#@"'<>\\`\u0000]{6,256})@(?=[A-Za-z0-9[])/y;
function slashedPassword(text: string, at: number, out: Array<PatternMatch & { prio: number }>): void {
  // Most URLs stop here: the host is followed by a `/` (a path), or by a port and a `/`.
  let k = at + 3;
  while (k < text.length && k - at < 68 && isUserinfoCode(text.charCodeAt(k))) k++;
  if (text.charCodeAt(k) !== 58) return;
  let d = k + 1;
  while (d < text.length && text.charCodeAt(d) >= 48 && text.charCodeAt(d) <= 57) d++;
  if (d === k + 1 ? false : !(text.charCodeAt(d) > 32) || text.charCodeAt(d) === 47) return;
  URL_SLASHED_PASSWORD_RE.lastIndex = at;
  const m = URL_SLASHED_PASSWORD_RE.exec(text);
  if (m === null) return;
  const pass = m[1]!;
  const slash = pass.indexOf('/');
  if (slash < 0 || /^[0-9]*$/.test(pass.slice(0, slash)) || pass.includes('://')) return;
  if (!/[0-9]/.test(pass) || !/[A-Za-z]/.test(pass) || !looksRandom(pass) || isPlaceholder(pass)) return;
  const end = URL_SLASHED_PASSWORD_RE.lastIndex - 1;
  out.push({ start: end - pass.length, end, kind: 'url-credentials', reveal: 0, prio: 1 });
}

/** A character of URL_SLASHED_PASSWORD_RE's user: `A-Za-z0-9._~%+-`. */
function isUserinfoCode(c: number): boolean {
  return (
    (c >= 65 && c <= 90) ||
    (c >= 97 && c <= 122) ||
    (c >= 48 && c <= 57) ||
    c === 46 ||
    c === 95 ||
    c === 126 ||
    c === 37 ||
    c === 43 ||
    c === 45
  );
}

// After `user@` (no colon in the user): `domain:password@` up to the host.
const URL_DOMAIN_PASS_RE =
  // eslint-disable-next-line no-control-regex -- NUL separates joined strings
  /([A-Za-z0-9.-]{1,128}\.[A-Za-z]{2,24}):([^\s/?@"'<>\\`\u0000]{1,256})@(?=[A-Za-z0-9[])/y;

/** [start, end) of the password when a userinfo `user@domain:password@` continues at `from`. */
function userAtDomain(text: string, from: number): [number, number] | null {
  URL_DOMAIN_PASS_RE.lastIndex = from;
  const m = URL_DOMAIN_PASS_RE.exec(text);
  if (m === null) return null;
  const pass = m[2]!;
  if (isPlaceholder(decodeSafe(pass)) || /^(?:pass|pwd|secret|token|password)$/i.test(pass)) return null;
  const end = URL_DOMAIN_PASS_RE.lastIndex - 1;
  return [end - pass.length, end];
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Sorted, non-overlapping matches; overlapping ones are merged, keeping the more specific kind. */
function mergeMatches(list: Array<PatternMatch & { prio: number }>): PatternMatch[] {
  if (list.length === 0) return [];
  list.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Array<PatternMatch & { prio: number }> = [];
  for (const m of list) {
    const last = out[out.length - 1];
    if (last && m.start < last.end) {
      if (m.prio > last.prio) {
        last.kind = m.kind;
        last.reveal = m.start === last.start ? m.reveal : 0;
        last.prio = m.prio;
      }
      last.end = Math.max(last.end, m.end);
    } else {
      out.push({ ...m });
    }
  }
  return out.map(({ start, end, kind, reveal }) => ({ start, end, kind, reveal }));
}

// Credentials written in the syntax of a tool rather than as an assignment: .netrc, .pgpass,
// command-line flags (--password x, mysql -px, sshpass -p x, docker login -p x, curl -u user:pass),
// Redis requirepass/masterauth, wp-config.php define() and PuTTY key files. Each is found from a
// literal anchor (indexOf or a literal-led regex) and read by a bounded sticky regex.
/* eslint-disable no-control-regex -- NUL separates joined strings: values must stop there */
// Between the words: spaces and line breaks, and at a line start a diff or quote marker or an Actions
// log timestamp.
const GAP = String.raw`(?:\s{1,8}(?:[+>-][ \t]{0,8}|\d{4}-\d\d-\d\dT[0-9:.]{8,20}Z[ \t]{1,4})?)`;
const NETRC_RE = new RegExp(
  String.raw`machine${GAP}\S{1,256}${GAP}login${GAP}\S{1,256}${GAP}password${GAP}([^\s"'\\\u0000]{3,256})`,
  'y',
);
const REDIS_RE = /(?:requirepass|masterauth)[ \t]{1,8}("?)([^\s"\u0000]{4,256})\1/y;
// The `"name": "X",` before a pair's second key (PAIR_NAME_RE), as the end of the text before it: the
// comma, then white space or a line break with its indent, diff (+ -), quote (>) or log-timestamp prefix.
const PAIR_GAP = String.raw`(?:[ \t]*(?:\r?\n)[ \t>+-]*(?:\d{4}-\d\d-\d\dT[0-9:.]{8,20}Z[ \t]{1,4})?[ \t>+-]*|[ \t]{0,8})`;
const PAIR_NAME_RE = new RegExp(String.raw`"(?:name|key)": ?"([^"\\\n\u0000]{1,64})",${PAIR_GAP}$`);
const PAIR_NAME_ESCAPED_RE = new RegExp(
  String.raw`\\"(?:name|key)\\": ?\\"([^"\\\n\u0000]{1,64})\\",(?:[ \t]*(?:\\r)?\\n[ \t>+-]*|[ \t]{0,8})$`,
);
/** A flag's value of `name=value` pairs (docker build's `--secret id=x,src=file`). */
const FLAG_PAIRS_RE = /=[^=]/;
const FLAG_RE =
  /--(?:[a-z0-9]{1,20}-){0,3}(?:password|passwd|pass|pwd|passphrase|token|api-key|apikey|secret|client-secret|access-token|auth-token|private-key|secret-key|encryption-key|master-key)(?:[ \t]{1,4}|=)(["']?)([^\s"'$<{\u0000-][^\s"'\u0000]{3,255})\1/giy;
// sshpass and registry logins take `-p VALUE`; mysql takes `-pVALUE` (`-p db` prompts, db is a name).
const SHORT_P_CMD_RE =
  /(?:^|[\s;&|("'`+>-])(?:sshpass|(mysql(?:dump|admin)?|mariadb(?:-dump)?)|(?:docker|podman|nerdctl|buildah|skopeo|az) login|mongo(?:sh)?|snowsql|(redis-cli))\s/;
// `-p X`, `-pX`, `-p=X` (docker login -p="..."), the quotes JSON-escaped or not.
const SHORT_P_RE = /-[pa](?:[ \t]?|=)(\\?["']?)([^\s"'$<{\\\u0000-][^\s"'\\\u0000]{3,255})\1/y;
const SHORT_P_GLUED_RE = /-p(["']?)([^\s"'$<{\u0000-][^\s"'\u0000]{3,255})\1/y;
const CURL_USER_RE = /(?:-u|--user)[ \t]{1,4}(["']?)[^\s:"'\u0000]{1,64}:([^\s"'\u0000]{3,256})\1/y;
const PGPASS_RE =
  /(?<![^\s\u0000"])[^:\s#"\u0000]{1,253}:(?:\d{1,5}|\*):[^:\s\u0000]{1,64}:[^:\s\u0000]{1,64}:([^\s\u0000:"]{4,256})(?![^\s\u0000"\\])/g;
const DEFINE_RE =
  /define\(\s{0,4}(['"])[A-Z_]{0,30}(?:PASSWORD|KEY|SALT|SECRET|TOKEN)[A-Z_]{0,30}\1\s{0,4},\s{0,4}(['"])([^'"\n\u0000]{4,256})\2/y;
// The lines end in newlines, or in the escape \n when the key file sits in serialised JSON.
const PUTTY_RE = /Private-Lines:[ \t]{0,4}(\d{1,3})[ \t]{0,4}(\r?\n|\\n)/y;
// GitHub/Gitea Actions workflow command: the value is registered as a secret to mask in the log.
const ADD_MASK_RE = /::add-mask::([^\s"'\u0000]{4,1000})/y;
// PowerShell: ConvertTo-SecureString "value" -AsPlainText.
const SECURE_STRING_RE =
  /ConvertTo-SecureString[ \t]{1,4}(?:-String[ \t]{1,4})?(\\?["'])([^"'\\\n\u0000]{4,256})\1/iy;
// Terraform: variable "db_password" { ... default = "value" }.
// Its quotes may be JSON-escaped (a .tf file quoted in a JSON string scanned as text).
const TF_VARIABLE_RE =
  /variable[ \t]{1,4}\\?"([A-Za-z0-9_-]{1,64})\\?"[ \t]{0,4}\{[^}\u0000]{0,400}?default[ \t]{0,4}=[ \t]{0,4}\\?"([^"\\\n\u0000]{4,256})(\\?")/y;
// Kubernetes / compose env lists in YAML: `- name: DB_PASSWORD` then `value: ...` on the next line
// (a quoted value may start with `#`, which unquoted starts a comment).
const YAML_VALUE_RE =
  /value:[ \t]{0,8}(\\?["']?)((?:[^\s"'#\\\u0000]|(?<=["'])#)[^\n"'\\\u0000]{0,299}?)\1[ \t]*(?=\r?\n|\\[nr]|"|\u0000|$)/dy;
// The line before: `name: X`, after indentation, a list dash, and quote or diff markers (> +).
// A line may start with an Actions log timestamp, and (the first line of a string) with its quote.
const LINE_PREFIX = String.raw`["\u0000]?[ \t>+-]*(?:\d{4}-\d\d-\d\dT[0-9:.]{8,20}Z[ \t]{1,4})?[ \t>+-]*`;
const YAML_LINE_PREFIX_RE = new RegExp(String.raw`^${LINE_PREFIX}$`);
// The name line may carry other text before (a log line's message): only its end is read.
const YAML_NAME_LINE_RE = /(?:^|[\s"'>+-])name:[ \t]*(\\?["']?)([A-Za-z0-9_.-]{1,64})\1[ \t]*\r?$/;

function pushValue(
  out: Array<PatternMatch & { prio: number }>,
  end: number,
  value: string,
  kind: string,
): void {
  if (isPlaceholder(value)) return;
  out.push({ start: end - value.length, end, kind, reveal: 0, prio: 1 });
}

function shortP(text: string, at: number, out: Array<PatternMatch & { prio: number }>): void {
  const lineStart = Math.max(text.lastIndexOf('\n', at), text.lastIndexOf('\u0000', at), at - 200, -1) + 1;
  const cmd = SHORT_P_CMD_RE.exec(text.slice(lineStart, at + 1));
  if (!cmd) return;
  // redis-cli takes the password as -a; the others as -p.
  if ((cmd[2] !== undefined) !== (text.charCodeAt(at + 1) === 97)) return;
  const re = cmd[1] !== undefined ? SHORT_P_GLUED_RE : SHORT_P_RE;
  re.lastIndex = at;
  const m = re.exec(text);
  if (m) pushValue(out, at + m[0].length - m[1]!.length, m[2]!, 'secret-flag');
}

function curlUser(text: string, at: number, out: Array<PatternMatch & { prio: number }>): void {
  CURL_USER_RE.lastIndex = at;
  const m = CURL_USER_RE.exec(text);
  if (m && !/^[0-9]+$/.test(m[2]!))
    pushValue(out, CURL_USER_RE.lastIndex - m[1]!.length, m[2]!, 'basic-auth-credentials');
}

function scanCredentialSyntax(
  text: string,
  out: Array<PatternMatch & { prio: number }>,
  lits: LiteralHits,
): void {
  for (let i = lits.indexOf(text, 'machine'); i >= 0; i = lits.indexOf(text, 'machine', i + 7)) {
    NETRC_RE.lastIndex = i;
    const m = NETRC_RE.exec(text);
    if (m) pushValue(out, NETRC_RE.lastIndex, m[1]!, 'netrc-password');
  }
  for (const anchor of ['requirepass', 'masterauth']) {
    for (let i = lits.indexOf(text, anchor); i >= 0; i = lits.indexOf(text, anchor, i + anchor.length)) {
      REDIS_RE.lastIndex = i;
      const m = REDIS_RE.exec(text);
      if (m) pushValue(out, i + m[0].length - m[1]!.length, m[2]!, 'secret-assignment');
    }
  }
  // Flags: every '--' (rare in prose) is tried as --password/--token/... and as curl's --user.
  for (let i = text.indexOf('--'); i >= 0; i = text.indexOf('--', i + 2)) {
    FLAG_RE.lastIndex = i;
    const m = FLAG_RE.exec(text);
    // `--secret id=x,src=file` (docker build) names a secret, it is not one; a base64 value's
    // closing `=` padding is its own.
    if (m && !FLAG_PAIRS_RE.test(m[2]!) && acceptAssignedValue(m[2]!, true))
      pushValue(out, i + m[0].length - m[1]!.length, m[2]!, 'secret-flag');
    else if (text.startsWith('--user', i)) curlUser(text, i, out);
  }
  // Short flags after a space: -p (sshpass, registry logins; glued -pVALUE for mysql), -u (curl).
  // One pass per separator (' -' is far rarer than '-' alone), flags told apart by the next letter.
  for (const sep of [' -', '\t-']) {
    for (let i = lits.indexOf(text, sep); i >= 0; i = lits.indexOf(text, sep, i + 2)) {
      const f = text.charCodeAt(i + 2);
      if (f === 117)
        curlUser(text, i + 1, out); // -u
      else if (f === 112 || f === 97) shortP(text, i + 1, out); // -p, -a
    }
  }
  if (text.includes(':5432:') || text.includes(':*:')) {
    PGPASS_RE.lastIndex = 0;
    for (let m = PGPASS_RE.exec(text); m !== null; m = PGPASS_RE.exec(text))
      pushValue(out, m.index + m[0].length, m[1]!, 'pgpass-password');
  }
  for (let i = lits.indexOf(text, 'define('); i >= 0; i = lits.indexOf(text, 'define(', i + 7)) {
    DEFINE_RE.lastIndex = i;
    const m = DEFINE_RE.exec(text);
    if (m && acceptAssignedValue(m[3]!, true))
      pushValue(out, DEFINE_RE.lastIndex - 1, m[3]!, 'secret-assignment');
  }
  // Serialised name/value pairs: {"name":"APP_SECRET","data":"..."} (Actions variables, env lists),
  // compact or pretty-printed (`"name": "X", "data": "..."`, or a line break, its indent and a
  // diff, quote or log-timestamp prefix before the second key), also as escaped JSON in a string.
  for (const q of ['"', '\\"']) {
    for (const field of ['data', 'value']) {
      const anchor = `${q}${field}${q}:`;
      for (let i = lits.indexOf(text, anchor); i >= 0; i = lits.indexOf(text, anchor, i + anchor.length)) {
        const head = text.slice(Math.max(0, i - 160), i);
        const m = (q === '"' ? PAIR_NAME_RE : PAIR_NAME_ESCAPED_RE).exec(head);
        if (m === null) continue;
        const name = m[1]!;
        if (!(namesSecret(name) || namesProvider(name) || namesSecretVariable(name))) continue;
        let from = i + anchor.length;
        if (text.charCodeAt(from) === 32) from++;
        if (!text.startsWith(q, from)) continue;
        from += q.length;
        const close = text.indexOf(q, from);
        if (close < 0 || close - from > 300) continue;
        const value = text.slice(from, close);
        if (!value.includes('\\') && acceptAssignedValue(value, true))
          pushValue(out, close, value, 'secret-assignment');
      }
    }
  }
  scanStructuredSyntax(text, out, lits);
  for (let i = text.indexOf('Private-Lines:'); i >= 0; i = text.indexOf('Private-Lines:', i + 14)) {
    PUTTY_RE.lastIndex = i;
    const m = PUTTY_RE.exec(text);
    if (!m) continue;
    const start = PUTTY_RE.lastIndex;
    const br = m[2] === '\\n' ? '\\n' : '\n';
    let end = start;
    for (let n = Number(m[1]); n > 0 && end < text.length; n--) {
      const nl = text.indexOf(br, end);
      end = nl < 0 ? text.length : nl + br.length;
    }
    if (end > start)
      out.push({
        start,
        end: text.endsWith(br, end) ? end - br.length : end,
        kind: 'putty-private-key',
        reveal: 0,
        prio: 2,
      });
  }
}

/**
 * Credentials in document syntax rather than `name = value`: XML elements (`<password>x</password>`,
 * Maven settings.xml), YAML name/value env lists, Terraform variable defaults, PowerShell secure
 * strings, and Actions' `::add-mask::` command. Each from a literal anchor, read by bounded regexes.
 */
function scanStructuredSyntax(
  text: string,
  out: Array<PatternMatch & { prio: number }>,
  lits: LiteralHits,
): void {
  for (let i = lits.indexOf(text, '::add-mask::'); i >= 0; i = lits.indexOf(text, '::add-mask::', i + 12)) {
    ADD_MASK_RE.lastIndex = i;
    const m = ADD_MASK_RE.exec(text);
    if (m) pushValue(out, ADD_MASK_RE.lastIndex, m[1]!, 'secret-assignment');
  }
  for (const anchor of ['ConvertTo-SecureString', 'convertto-securestring']) {
    for (let i = lits.indexOf(text, anchor); i >= 0; i = lits.indexOf(text, anchor, i + anchor.length)) {
      SECURE_STRING_RE.lastIndex = i;
      const m = SECURE_STRING_RE.exec(text);
      if (m && acceptAssignedValue(m[2]!, true))
        pushValue(out, SECURE_STRING_RE.lastIndex - m[1]!.length, m[2]!, 'secret-assignment');
    }
  }
  for (let i = lits.indexOf(text, 'variable'); i >= 0; i = lits.indexOf(text, 'variable', i + 8)) {
    TF_VARIABLE_RE.lastIndex = i;
    const m = TF_VARIABLE_RE.exec(text);
    if (m && namesSecret(m[1]!) && acceptAssignedValue(m[2]!, true))
      pushValue(out, TF_VARIABLE_RE.lastIndex - m[3]!.length, m[2]!, 'secret-assignment');
  }
  // XML: every closing tag whose name names a secret, with its opening tag at most 300 characters back.
  for (let i = text.indexOf('</'); i >= 0; i = text.indexOf('</', i + 2)) {
    const close = text.indexOf('>', i + 2);
    if (close < 0 || close - i > 66) continue;
    const name = text.slice(i + 2, close);
    if (!/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/.test(name) || !namesSecret(name)) continue;
    // Searched in a bounded slice: an unbounded lastIndexOf would make repeated tags quadratic.
    const from = Math.max(0, i - 302 - name.length);
    const rel = text.slice(from, i).lastIndexOf(`<${name}>`);
    if (rel < 0) continue;
    const open = from + rel;
    const value = text.slice(open + name.length + 2, i);
    if (!value.includes('<') && !value.includes('\u0000') && acceptAssignedValue(value, true))
      pushValue(out, i, value, 'secret-assignment');
  }
  // YAML env lists: a `value:` whose line follows a `name:` line naming a secret.
  for (let i = text.indexOf('value:'); i >= 0; i = text.indexOf('value:', i + 6)) {
    if (i > 0 && isWordCode(text.charCodeAt(i - 1))) continue; // secretValue:, default_value:
    // Lines end in a newline, or in the escape \n when the YAML sits in serialised JSON.
    const [lineStart, breakLen] = lineStartBefore(text, i);
    if (lineStart < 1 || i - lineStart > 60 || !YAML_LINE_PREFIX_RE.test(text.slice(lineStart, i))) continue;
    const [prevStart] = lineStartBefore(text, lineStart - breakLen);
    if (prevStart < 0 || lineStart - prevStart > 120) continue;
    const name = YAML_NAME_LINE_RE.exec(text.slice(prevStart, lineStart - breakLen));
    if (!name || !namesSecret(name[2]!)) continue;
    YAML_VALUE_RE.lastIndex = i;
    const m = YAML_VALUE_RE.exec(text);
    if (m && acceptAssignedValue(m[2]!, true)) pushValue(out, m.indices![2]![1], m[2]!, 'secret-assignment');
  }
}

/** Start of the line holding `at` and the length of the break before it (1 for \n, 2 for an escaped \n). */
function lineStartBefore(text: string, at: number): [number, number] {
  // Bounded (callers reject lines over 120 characters): no backward scan over the whole text.
  const min = Math.max(0, at - 200);
  for (let j = at - 1; j >= min; j--) {
    const c = text.charCodeAt(j);
    if (c === 10 || c === 0) return [j + 1, 1];
    if (c === 110 && j > 0 && text.charCodeAt(j - 1) === 92) return [j + 1, 2];
  }
  return [min === 0 ? 0 : -1, 1];
}
/* eslint-enable no-control-regex */
