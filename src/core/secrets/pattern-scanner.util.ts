// Finds layer-2 secrets in text in one linear pass per scan kind:
// 1. one combined regex over all rule anchors (literals), each hit confirmed by bounded sticky regexes;
// 2. one case-insensitive keyword regex for assignments (password=, api_key:, Authorization: Bearer ...);
// 3. indexOf loops for private key blocks and credentials in URLs.
// NUL (U+0000) separates the strings of one result when they are scanned together: no match may
// cross it, so every character class below excludes it and the block/URL scans stop at it.
import { ANCHORED_RULES, AnchoredRule, PatternMatch, looksRandom } from './pattern-rules.util';
import { isPlaceholder } from './placeholder.util';

const SEP = '\u0000';

const RULES_BY_ANCHOR = new Map<string, AnchoredRule[]>();
for (const rule of ANCHORED_RULES) {
  const list = RULES_BY_ANCHOR.get(rule.anchor) ?? [];
  list.push(rule);
  RULES_BY_ANCHOR.set(rule.anchor, list);
}
const ANCHOR_RE = new RegExp(
  [...RULES_BY_ANCHOR.keys()]
    .sort((a, b) => b.length - a.length)
    .map((a) => a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|'),
  'g',
);

const KEYWORD_RE = /passw(?:or)?d|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|accountkey|sharedaccesskey|private[_-]?key|authorization|bearer|[?&]sig=/gi;
const KEY_SUFFIX_OK = /^(?:[_-]?(?:access[_-]?)?(?:key|value|secret|token|string|v[0-9]|[0-9]))?$/i;
const ASSIGNMENT_RE =
  /([A-Za-z0-9_-]{0,20})["']?\s{0,3}(?::=|=>|[:=])[ \t]{0,3}(?:(["'`])([^"'`\r\n\u0000]{1,300})\2|([^\s"'`<>;,&)\]}\u0000]{1,300}))/y;
const AUTH_RE =
  /(?:[_-]?header)?["']?\s{0,3}[:=]\s{0,3}["']?(?:bearer|token|basic|digest|bot|apikey)[ \t]{1,3}([A-Za-z0-9._~+/=-]{6,4096})/iy;
const BEARER_RE = /[ \t]{1,3}([A-Za-z0-9._~+/-]{16,4096}=*)/y;
const SIG_RE = /([A-Za-z0-9%+/=]{20,200})/y;
const PEM_HEADER_RE = /-----BEGIN ([A-Z0-9 ]{1,40})-----/y;

export function scanText(text: string): PatternMatch[] {
  const out: Array<PatternMatch & { prio: number }> = [];
  if (text.length < 8) return [];

  ANCHOR_RE.lastIndex = 0;
  for (let m = ANCHOR_RE.exec(text); m !== null; m = ANCHOR_RE.exec(text)) {
    for (const rule of RULES_BY_ANCHOR.get(m[0]) ?? []) {
      const span = rule.match(text, m.index);
      if (span) {
        out.push({ start: span[0], end: span[1], kind: rule.kind, reveal: rule.reveal, prio: 2 });
        ANCHOR_RE.lastIndex = Math.max(ANCHOR_RE.lastIndex, span[1]);
        break;
      }
    }
  }

  KEYWORD_RE.lastIndex = 0;
  for (let m = KEYWORD_RE.exec(text); m !== null; m = KEYWORD_RE.exec(text)) {
    const kw = m[0].toLowerCase();
    const after = m.index + m[0].length;
    if (kw === 'authorization') {
      AUTH_RE.lastIndex = after;
      const a = AUTH_RE.exec(text);
      if (a && !isPlaceholder(a[1]!)) {
        const end = AUTH_RE.lastIndex;
        out.push({ start: end - a[1]!.length, end, kind: 'authorization-header', reveal: 0, prio: 1 });
        KEYWORD_RE.lastIndex = end;
      }
      continue;
    }
    if (kw === 'bearer') {
      BEARER_RE.lastIndex = after;
      const a = BEARER_RE.exec(text);
      if (a && !isPlaceholder(a[1]!) && looksRandom(a[1]!)) {
        const end = BEARER_RE.lastIndex;
        out.push({ start: end - a[1]!.length, end, kind: 'bearer-token', reveal: 0, prio: 1 });
        KEYWORD_RE.lastIndex = end;
      }
      continue;
    }
    if (kw.endsWith('sig=')) {
      SIG_RE.lastIndex = after;
      const a = SIG_RE.exec(text);
      if (a && looksRandom(a[1]!)) out.push({ start: after, end: SIG_RE.lastIndex, kind: 'sas-signature', reveal: 0, prio: 1 });
      continue;
    }
    ASSIGNMENT_RE.lastIndex = after;
    const a = ASSIGNMENT_RE.exec(text);
    if (!a || !KEY_SUFFIX_OK.test(a[1]!)) continue;
    const quoted = a[3] !== undefined;
    const value = (quoted ? a[3] : a[4])!;
    if (!acceptAssignedValue(value, quoted)) continue;
    const end = ASSIGNMENT_RE.lastIndex - (quoted ? 1 : 0);
    out.push({ start: end - value.length, end, kind: 'secret-assignment', reveal: 0, prio: 1 });
    KEYWORD_RE.lastIndex = end;
  }

  scanPrivateKeyBlocks(text, out);
  scanUrlCredentials(text, out);
  return mergeMatches(out);
}

/** Whether a value assigned to a secret-like key is worth masking. */
export function acceptAssignedValue(raw: string, quoted: boolean): boolean {
  const value = raw.trim();
  if (value.length < 6 || isPlaceholder(value)) return false;
  if (value.includes(' ') && !quoted) return false;
  // Unquoted pure words are prose or identifiers ("token: required"), not credentials.
  if (!quoted && /^[A-Za-z_-]+$/.test(value)) return false;
  if (quoted && /^[a-z]{1,11}$/.test(value)) return false;
  return true;
}

function scanPrivateKeyBlocks(text: string, out: Array<PatternMatch & { prio: number }>): void {
  let from = 0;
  let nextEnd = -2; // cached position of the next '-----END ' (monotonic, so the scan stays linear)
  let nextSep = -2;
  for (;;) {
    const at = text.indexOf('-----BEGIN ', from);
    if (at < 0) return;
    PEM_HEADER_RE.lastIndex = at;
    const h = PEM_HEADER_RE.exec(text);
    from = at + 11;
    if (!h || !h[1]!.includes('PRIVATE KEY')) continue;
    if (nextSep !== -1 && nextSep < at) nextSep = text.indexOf(SEP, at);
    const limit = nextSep < 0 ? text.length : nextSep;
    if (nextEnd !== -1 && nextEnd < at) nextEnd = text.indexOf('-----END ', at);
    let end = limit;
    if (nextEnd >= 0 && nextEnd < limit) {
      const close = text.indexOf('-----', nextEnd + 9);
      end = close >= 0 && close < limit && close - nextEnd < 80 ? close + 5 : limit;
    }
    const kind = h[1]!.includes('PGP') ? 'pgp-private-key' : h[1]!.includes('OPENSSH') ? 'openssh-private-key' : 'private-key';
    out.push({ start: at, end, kind, reveal: 0, prio: 2 });
    from = end;
  }
}

const URL_STOP = new Set([...'/?#"\'<>\\` \t\r\n\u0000'].map((c) => c.charCodeAt(0)));

function scanUrlCredentials(text: string, out: Array<PatternMatch & { prio: number }>): void {
  let from = 0;
  for (;;) {
    const at = text.indexOf('://', from);
    if (at < 0) return;
    from = at + 3;
    const c = at > 0 ? text.charCodeAt(at - 1) : 0;
    if (!((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57))) continue;
    // Userinfo ends at '@' before any path/space/quote character, within 256 characters.
    let i = at + 3;
    const max = Math.min(text.length, i + 256);
    let colon = -1;
    while (i < max) {
      const code = text.charCodeAt(i);
      if (code === 64 || URL_STOP.has(code)) break;
      if (code === 58 && colon < 0) colon = i;
      i++;
    }
    if (i >= max || text.charCodeAt(i) !== 64) continue;
    const userStart = at + 3;
    let start = -1;
    let end = i;
    if (colon >= 0) {
      const pass = text.slice(colon + 1, i);
      const user = text.slice(userStart, colon);
      if (pass === 'x-oauth-basic' || pass === '') {
        if (user.length >= 16 && looksRandom(user)) [start, end] = [userStart, colon];
      } else if (!isPlaceholder(decodeSafe(pass)) && !/^(?:pass|pwd|secret|token)$/i.test(pass)) {
        start = colon + 1;
      }
    } else {
      const user = text.slice(userStart, i);
      if (user.length >= 20 && looksRandom(user) && /[0-9]/.test(user) && !isPlaceholder(user)) start = userStart;
    }
    if (start >= 0) out.push({ start, end, kind: 'url-credentials', reveal: 0, prio: 1 });
    from = i + 1;
  }
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
