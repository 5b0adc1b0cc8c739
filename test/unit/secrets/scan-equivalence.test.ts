// The fast paths must find exactly what the straightforward ones find: the keyword windows against
// a keyword scan of the whole text, and the string walk of objects against their serialised text.
import { mulberry32, pick } from '../../../bench/secrets/corpus';
import { scrubResult } from '../../../src/core/secrets';
import { scrubSerialised } from '../../../src/core/secrets/scrub.util';
import {
  ProseDigits,
  scanEncodedRuns,
  scanText,
  scanTokenPrefixes,
  scanTextWithoutWindows,
} from '../../../src/core/secrets/pattern-scanner.util';
import {
  asciiCodes,
  AUTOMATON_LITERALS,
  LiteralHits,
  NeedChecks,
  needsHold,
  OperatorReach,
  operatorAfter,
  PORTED_RULES,
  scanPortedRules,
  byteSkipOf,
  usesByteSkip,
} from '../../../src/core/secrets/ported-rules.util';
import { ANCHORED_RULES, type PatternMatch } from '../../../src/core/secrets/pattern-rules.util';
import { GITLEAKS_RULES } from '../../../src/core/secrets/gitleaks-rules.generated';
import { KEYWORD_RULES } from '../../../src/core/secrets/keyword-rules';

const PORTED_RULES_KEYWORDS = new Map(KEYWORD_RULES.map((r) => [r.id, r.keywords]));

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const ctx = { exactSecrets: [] as string[], mode: 'mask' as const, skipPatterns: false };

// Pieces that provoke every keyword rule and the edges of the windows: keywords in all cases, key
// suffixes, quotes, escapes, spaces, operators (also := and =>), long word runs, bearer, ?sig=.
const KEYWORDS = [
  'password',
  'PASSWD',
  'pwd',
  'private_key',
  'Secret',
  'secretoken',
  'token',
  'api-key',
  'ApiKey',
  'access_key',
  'accountkey',
  'auth',
  'Authorization',
  'authorization_header',
  'Bearer',
  'bearer',
  'sharedaccesskey',
  '?sig',
  '&sig',
];
const JOINERS = ['=', ':', ' = ', ': ', ':=', '=>', '"="', '\\":\\"', "='", ' :  ', '_v2=', 'Value=', '_x='];

// Without quotes, backslashes and control characters, a string reads the same raw and JSON-escaped.
const jsonSafe = (f: string): boolean => JSON.stringify(f).length === f.length + 2;

function fragment(rng: () => number, safe = false): string {
  if (safe) {
    for (;;) {
      const f = fragment(rng);
      if (jsonSafe(f)) return f;
    }
  }
  const r = rng();
  if (r < 0.3) return KEYWORDS[Math.floor(rng() * KEYWORDS.length)]!;
  if (r < 0.55) return JOINERS[Math.floor(rng() * JOINERS.length)]!;
  if (r < 0.75) return pick(rng, ALNUM, 1 + Math.floor(rng() * 30));
  if (r < 0.8) return pick(rng, 'abcdefghij_-', 70); // a word run longer than the window look-back
  if (r < 0.9) return [' ', '\n', '"', "'", ',', '\\n', ' ', '\t'][Math.floor(rng() * 8)]!;
  return ['Bearer ', 'token ', 'basic '][Math.floor(rng() * 3)]! + pick(rng, ALNUM, 24);
}

describe('keyword windows', () => {
  it('find the same matches as a keyword scan over the whole text', () => {
    const rng = mulberry32(2024);
    let withMatches = 0;
    for (let n = 0; n < 3000; n++) {
      let text = '';
      const parts = 1 + Math.floor(rng() * 25);
      for (let i = 0; i < parts; i++) text += fragment(rng);
      const fast = scanText(text);
      expect(fast).toEqual(scanTextWithoutWindows(text));
      if (fast.length > 0) withMatches++;
    }
    expect(withMatches).toBeGreaterThan(500); // the generator does reach the rules
  });
});

describe('string walk of objects', () => {
  // Escapes are where the two differ on purpose: the walk reads strings as they are (a newline is a
  // newline, a mask counts the real length), the serialised text reads \n and \" escapes.
  it('masks what the scan of the serialised JSON masks (strings without escapes)', () => {
    const rng = mulberry32(77);
    let masked = 0;
    const keys = [
      'body',
      'title',
      'password',
      'api_key',
      'secretToken',
      'Authorization',
      'auth',
      'note',
      'url',
    ];
    for (let n = 0; n < 400; n++) {
      const items: unknown[] = [];
      for (let i = 0; i < 4; i++) {
        const o: Record<string, unknown> = { id: i };
        for (let k = 0; k < 3; k++) {
          let v = '';
          const parts = 1 + Math.floor(rng() * 8);
          for (let p = 0; p < parts; p++) v += fragment(rng, true);
          o[keys[Math.floor(rng() * keys.length)]!] = v;
        }
        items.push(o);
      }
      const walk = scrubResult(items, ctx);
      const text = scrubSerialised(items, ctx);
      expect(walk.value).toEqual(text.value);
      expect(walk.masks).toBe(text.masks);
      if (walk.masks > 0) masked++;
    }
    expect(masked).toBeGreaterThan(100);
  });
});

/** The ported rules' findings, prose hooks and first literal hits over text, scanned as codes say. */
const run = (text: string, codes: Uint8Array | null | undefined) => {
  const out: PatternMatch[] = [];
  const prose: number[] = [];
  const lits = new LiteralHits();
  scanPortedRules(text, out, (_t, s, e) => prose.push(s, e), lits, codes);
  return { out, prose, first: [...lits.first] };
};

describe('keyword skip over bytes', () => {
  // A long ASCII text in the outermost scan's buffer is skipped by the WebAssembly loop; in a buffer
  // of its own, by the JavaScript one; not as bytes at all, by charCodeAt. All three find the same.
  it('finds the same with the WebAssembly skip, the JavaScript one and charCodeAt', () => {
    const rng = mulberry32(4096);
    let found = 0;
    for (let n = 0; n < 60; n++) {
      let text = '';
      // long enough for the byte path; ending on a keyword's first characters at times
      while (text.length < 4096 + Math.floor(rng() * 3000)) text += fragment(rng);
      if (n % 3 === 0) text += ['pa', 'tok', 'p', 'ap', 'secr'][n % 5]!;
      const shared = asciiCodes(text, true);
      expect(shared).not.toBeNull();
      expect(usesByteSkip(shared!)).toBe(true);
      const own = asciiCodes(text, false);
      expect(usesByteSkip(own!)).toBe(false);
      const wasm = run(text, shared);
      expect(wasm).toEqual(run(text, own));
      expect(wasm).toEqual(run(text, null));
      found += wasm.out.length;
    }
    expect(found).toBeGreaterThan(100);
  });
});

describe('the separator and upper-case prefix scans over token runs', () => {
  // Over the outermost scan's bytes the two scans read the runs of 16 or more token characters the
  // WebAssembly module finds (and ATBB, ATATT3, SG. with indexOf) instead of running SEP_RE and
  // UPPER_RE: the same rules must be tried at the same positions, so the findings are the same.
  const anchors = [...new Set(ANCHORED_RULES.map((r) => r.anchor))];
  const alphabets = [
    '0123456789abcdef',
    'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567',
    ALNUM,
    ALNUM + '_-',
    ALNUM + '_-=.',
    ALNUM + '+/=',
  ];
  const token = (rng: () => number): string => {
    const r = rng();
    const head =
      r < 0.7
        ? anchors[Math.floor(rng() * anchors.length)]!
        : r < 0.85
          ? pick(rng, 'abcdefghijklmnopqrstuvwxyz', 2 + Math.floor(rng() * 6)) + pick(rng, '_-.', 1)
          : pick(rng, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 2);
    const body = pick(rng, alphabets[Math.floor(rng() * alphabets.length)]!, 8 + Math.floor(rng() * 90));
    // a second segment now and then (JWTs, Discord and Dynatrace tokens, check suffixes)
    return rng() < 0.2
      ? `${head}${body}${pick(rng, '._-', 1)}${pick(rng, ALNUM, 6 + Math.floor(rng() * 40))}`
      : head + body;
  };
  const between = ['', ' ', '"', '\\n', '\\t', '\u0000', '.', '-', '_', ':', '=', ',', '/', 'x', 'key: '];
  it('finds what SEP_RE and UPPER_RE find, runs at the start and the end of the text included', () => {
    const rng = mulberry32(1616);
    let found = 0;
    for (let n = 0; n < 120; n++) {
      let text = n % 3 === 0 ? token(rng) : '';
      while (text.length < 4096 + Math.floor(rng() * 2000)) {
        const r = rng();
        text +=
          r < 0.35
            ? token(rng)
            : r < 0.7
              ? between[Math.floor(rng() * between.length)]!
              : r < 0.85
                ? pick(rng, ALNUM + '_-', 10 + Math.floor(rng() * 12)) // runs around 16
                : fragment(rng, true);
      }
      if (n % 2 === 1) text += token(rng);
      const overRuns = scanTokenPrefixes(text, 'runs');
      expect(overRuns).toEqual(scanTokenPrefixes(text, 'regex'));
      expect(scanTokenPrefixes(text, 'auto')).toEqual(overRuns);
      found += overRuns.length;
    }
    expect(found).toBeGreaterThan(100);
  });
  it('finds the tokens whose first 16 characters are not all token characters (ATBB, ATATT3, SG.)', () => {
    // Their rules are tried where indexOf finds the anchor: no token run of 16 starts there.
    const filler = ' ab cd'.repeat(700);
    const rng = mulberry32(17);
    const tokens = [
      `ATBB${pick(rng, ALNUM, 3)}=${pick(rng, ALNUM, 3)}.${pick(rng, ALNUM, 24)}`,
      `ATATT3${pick(rng, ALNUM, 3)}=${pick(rng, ALNUM, 3)}-${pick(rng, ALNUM, 60)}`,
      `SG.${pick(rng, ALNUM, 22)}.${pick(rng, ALNUM, 43)}`,
    ];
    for (const t of tokens) {
      for (const text of [`${filler} ${t}`, t + filler, `${filler} ${t} x`]) {
        const found = scanTokenPrefixes(text, 'runs');
        // (SG. is found by the separator scan too: the merge keeps one)
        expect([...new Set(found.map((f) => text.slice(f.start, f.end)))]).toEqual([t]);
        expect(found).toEqual(scanTokenPrefixes(text, 'regex'));
      }
    }
  });
});

describe("gitleaks' nested identifier prefix", () => {
  // Five rules start with `[\w.\-]{0,50}?(?:[\w.\-]{0,50}?KEYWORD`, which V8 backtracks through at
  // every position of a word run; the engine runs them with one `{0,100}?`, which must match alike.
  const nested = '[\\w.\\-]{0,50}?(?:[\\w.\\-]{0,50}?';
  const sources = new Map(GITLEAKS_RULES.map((r) => [r.id, r.regex]));
  const rules = PORTED_RULES.filter((r) => sources.get(r.id)?.startsWith(nested));
  const W = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-';
  const all = (re: RegExp, t: string) => {
    const out: Array<[number, string[], unknown]> = [];
    re.lastIndex = 0;
    for (let m = re.exec(t); m !== null; m = re.exec(t)) out.push([m.index, [...m], m.indices]);
    return out;
  };
  it('are flattened and find what the nested form finds, at every prefix length', () => {
    expect(rules.map((r) => r.id).sort()).toEqual([
      'cisco-meraki-api-key',
      'cohere-api-token',
      'okta-access-token',
      'privateai-api-token',
      'sumologic-access-id',
    ]);
    const rng = mulberry32(131);
    const values = [
      () => pick(rng, '0123456789abcdef', 40),
      () => pick(rng, ALNUM, 40),
      () => '00' + pick(rng, ALNUM + '=-', 40),
      () => pick(rng, 'abcdefghijklmnopqrstuvwxyz0123456789', 32),
      () => 'su' + pick(rng, ALNUM, 12),
    ];
    const keywordsOf = new Map(GITLEAKS_RULES.map((r) => [r.id, r.keywords]));
    const cases = (k: string) => [k, k.toUpperCase(), k[0]!.toUpperCase() + k.slice(1)];
    const ops = ['=', ' = ', ': ', '":"', '=> ', ',', '|| '];
    let matched = 0;
    for (const rule of rules) {
      expect(rule.global.source).not.toBe(new RegExp(sources.get(rule.id)!).source);
      const reference = new RegExp(sources.get(rule.id)!, 'dg');
      const keywords = keywordsOf.get(rule.id)!.flatMap(cases);
      for (let n = 0; n < 300; n++) {
        const kw = keywords[n % keywords.length]!;
        let t = pick(rng, ' \n"', 1) + pick(rng, W, n % 131) + kw + ops[n % ops.length]!;
        t += values[n % values.length]!() + pick(rng, '" \n;x', 1);
        if (n % 4 === 0) t += pick(rng, W, 60) + kw + '=' + values[(n >> 2) % values.length]!();
        const found = all(rule.global, t);
        expect(found).toEqual(all(reference, t));
        if (found.length > 0) matched++;
      }
    }
    expect(matched).toBeGreaterThan(100);
  });
});

describe("the prose check's first test", () => {
  // ProseDigits answers, for keywords in text order, what a read of up to 260 characters per keyword
  // answered: a digit on the keyword's line or in its string, before a white space 61 or more on.
  const reference = (text: string, end: number): boolean => {
    let digit = false;
    for (let j = end, max = Math.min(text.length, end + 260); j < max && !digit; j++) {
      const c = text.charCodeAt(j);
      if (c === 10 || c === 0 || (c === 34 && text.charCodeAt(j - 1) !== 92)) break;
      if (j - end > 60 && (c === 32 || c === 9)) break;
      digit = c >= 48 && c <= 57;
    }
    return digit;
  };
  it('gives what a read after each keyword gives, on bytes and on characters', () => {
    const rng = mulberry32(260);
    const pieces = [' ', ' ', '\t', '\n', '"', '\\"', '\u0000', 'word', 'x'.repeat(70), '7', '42'];
    let yes = 0;
    let no = 0;
    for (let n = 0; n < 40; n++) {
      let text = '';
      while (text.length < 4096 + Math.floor(rng() * 2000))
        text +=
          rng() < 0.5
            ? pieces[Math.floor(rng() * pieces.length)]!
            : pick(rng, ALNUM, 1 + Math.floor(rng() * 20));
      // the positions a scan asks about, in order, with repeats and a few steps back
      const ends: number[] = [];
      for (let e = 1; e < text.length; e += 1 + Math.floor(rng() * 40)) {
        ends.push(e);
        if (rng() < 0.05) ends.push(e);
        if (rng() < 0.02) ends.push(Math.max(1, e - 100));
      }
      for (const codes of [asciiCodes(text, true), asciiCodes(text, false), null]) {
        const digits = new ProseDigits(text, codes);
        for (const e of ends) {
          const want = reference(text, e);
          expect(digits.after(e)).toBe(want);
          if (want) yes++;
          else no++;
        }
      }
    }
    expect(yes).toBeGreaterThan(1000);
    expect(no).toBeGreaterThan(1000);
  });
});

describe("the generic rule's operator check", () => {
  // OperatorReach answers, for keywords in text order, what operatorAfter's read of up to 48
  // identifier characters and blanks, then 5 more, answers.
  it('gives what a read after each keyword gives, on bytes and on characters', () => {
    const rng = mulberry32(48);
    const pieces = [
      ' ',
      '\t',
      '\n',
      '"',
      "'",
      '\\',
      '=',
      ':',
      '>',
      '|',
      '?',
      ',',
      '.',
      '-',
      '\u0000',
      '\u00e9',
    ];
    let yes = 0;
    let no = 0;
    for (let n = 0; n < 40; n++) {
      // half the texts are ASCII (read as bytes), half not
      const ps = n % 2 === 0 ? pieces : pieces.slice(0, -1);
      let text = '';
      while (text.length < 4096 + Math.floor(rng() * 2000))
        text +=
          rng() < 0.3
            ? ps[Math.floor(rng() * ps.length)]!
            : rng() < 0.1
              ? ' '.repeat(1 + Math.floor(rng() * 60))
              : pick(rng, ALNUM, 1 + Math.floor(rng() * (rng() < 0.1 ? 70 : 12)));
      // the positions a scan asks about, in order, with repeats and a few steps back
      const ends: number[] = [];
      for (let e = 1; e <= text.length; e += 1 + Math.floor(rng() * 30)) {
        ends.push(e);
        if (rng() < 0.05) ends.push(e);
        if (rng() < 0.02) ends.push(Math.max(1, e - 100));
      }
      ends.push(text.length);
      if (n % 2 === 1) expect(asciiCodes(text, false)).not.toBeNull();
      for (const codes of [asciiCodes(text, false), null]) {
        const reach = new OperatorReach(text, codes);
        for (const e of ends) {
          const want = operatorAfter(text, e, codes);
          expect(reach.after(e)).toBe(want);
          if (want) yes++;
          else no++;
        }
      }
    }
    expect(yes).toBeGreaterThan(1000);
    expect(no).toBeGreaterThan(1000);
  });
});

describe("the prefix rules' necessary conditions", () => {
  // A rule's `needs` (keyword-rules.ts) lets the scan skip its regex at a keyword: it must hold
  // wherever the regex matches from the keyword's start, and NeedChecks must answer what needsHold does.
  const withNeeds = PORTED_RULES.filter((r) => r.needs !== null);
  const pieces = [' ', ' ', '\t', ':', ': ', '=', ' = ', '=>', ' -> ', ' - ', ' | ', '**', '__', '"', "'"];
  pieces.push('\\"', '`', '```', '\n', '\\n', '\n\n', '    ', '\n    ', 's', '_key', '_value', '.', ',');
  const value = (rng: () => number): string =>
    rng() < 0.5
      ? pick(rng, ALNUM, 8 + Math.floor(rng() * 40))
      : pick(rng, 'abcdefXYZ012_-./+=!@#', 8 + Math.floor(rng() * 30));
  it('is declared on the rules tried at common words', () => {
    expect(withNeeds.length).toBeGreaterThanOrEqual(2);
  });
  it('holds wherever the rule matches, on generated text around its keywords', () => {
    const rng = mulberry32(37);
    let matched = 0;
    for (const rule of withNeeds) {
      const keywords = PORTED_RULES_KEYWORDS.get(rule.id)!;
      for (let n = 0; n < 6000; n++) {
        const kw = keywords[n % keywords.length]!.replace(/[a-z]/g, (c) =>
          rng() < 0.3 ? c.toUpperCase() : c,
        );
        let text = kw;
        const parts = 1 + Math.floor(rng() * 6);
        for (let k = 0; k < parts; k++)
          text += rng() < 0.7 ? pieces[Math.floor(rng() * pieces.length)]! : value(rng);
        text += value(rng) + pick(rng, ' "\n', 1) + pick(rng, ALNUM, 10);
        rule.sticky.lastIndex = 0;
        if (!rule.sticky.test(text)) continue;
        matched++;
        expect({ rule: rule.id, text, holds: needsHold(rule.needs!, text, 0) }).toEqual({
          rule: rule.id,
          text,
          holds: true,
        });
      }
    }
    expect(matched).toBeGreaterThan(500);
  });
  it('are answered by NeedChecks as by needsHold, on bytes and on characters', () => {
    const rng = mulberry32(26);
    const needs = [...withNeeds.map((r) => r.needs!), { operatorWithin: 3 }, { digitTokenWithin: 5 }];
    let yes = 0;
    let no = 0;
    for (let n = 0; n < 30; n++) {
      let text = '';
      while (text.length < 4096 + Math.floor(rng() * 2000))
        text +=
          rng() < 0.4
            ? pieces[Math.floor(rng() * pieces.length)]!
            : pick(rng, rng() < 0.8 ? 'abcdefghijklmnopqrstuvwxyz' : ALNUM, 1 + Math.floor(rng() * 30));
      const starts: number[] = [];
      for (let e = 0; e <= text.length; e += Math.floor(rng() * 30)) {
        starts.push(e);
        if (rng() < 0.1) starts.push(Math.max(0, e - Math.floor(rng() * 30)));
      }
      for (const codes of [asciiCodes(text, true), asciiCodes(text, false), null]) {
        const checks = new NeedChecks(text, codes);
        for (const e of starts)
          for (const nd of needs) {
            const want = needsHold(nd, text, e);
            expect(checks.hold(nd, e)).toBe(want);
            if (want) yes++;
            else no++;
          }
      }
    }
    expect(yes).toBeGreaterThan(1000);
    expect(no).toBeGreaterThan(1000);
  });
});

describe('the digit search over the WebAssembly memory', () => {
  // Eight bytes at a time, then one by one: a digit at every offset of a word, near the end of the
  // text and at its last byte, found from every position before it (the prose check and the prefix
  // rules' digit condition ask it where a regex for [0-9] was run).
  it('finds the first digit from every position, as a search for [0-9] does', () => {
    const rng = mulberry32(48);
    for (let n = 0; n < 40; n++) {
      let text = pick(rng, 'abcdefghij :/"-_.\n', 4096 + Math.floor(rng() * 64));
      const digits = 1 + Math.floor(rng() * 4);
      for (let d = 0; d < digits; d++) {
        const at = rng() < 0.5 ? text.length - 1 - Math.floor(rng() * 24) : Math.floor(rng() * text.length);
        text = text.slice(0, at) + '0123456789'[Math.floor(rng() * 10)] + text.slice(at + 1);
      }
      const wasm = byteSkipOf(asciiCodes(text, true));
      expect(wasm).not.toBeNull();
      const re = /[0-9]/g;
      for (let i = 0; i <= text.length; i += i < text.length - 64 ? 1 + Math.floor(rng() * 16) : 1) {
        re.lastIndex = i;
        expect({ i, at: wasm!.digit(i, text.length) }).toEqual({ i, at: re.exec(text)?.index ?? -1 });
      }
    }
  });
});

describe('the base64/hex-run probe', () => {
  // The probe runs in WebAssembly over the outermost scan's bytes, in JavaScript over other bytes
  // and with charCodeAt over other texts: all three must find the same, runs at the very start and
  // end of the text, around the 24-character bound and past the 64 K one included.
  const B64 = ALNUM + '+/';
  it('finds the same runs over bytes and with charCodeAt', () => {
    const rng = mulberry32(2424);
    const encoded = (): string => {
      const body = `DB_PASSWORD=${pick(rng, ALNUM, 12 + Math.floor(rng() * 20))}\n`;
      const b = Buffer.from(body);
      return rng() < 0.3 ? b.toString('hex') : b.toString(rng() < 0.5 ? 'base64' : 'base64url');
    };
    let found = 0;
    for (let n = 0; n < 80; n++) {
      let text = n % 4 === 0 ? encoded() : '';
      while (text.length < 4096 + Math.floor(rng() * 3000)) {
        const r = rng();
        // runs around the 24-character bound, words, separators, encoded secrets
        text +=
          r < 0.35
            ? pick(rng, B64, 18 + Math.floor(rng() * 12))
            : r < 0.6
              ? pick(rng, ALNUM, 1 + Math.floor(rng() * 10))
              : r < 0.9
                ? [' ', '"', '\n', ',', ':', '\u0000', '==', '.'][Math.floor(rng() * 8)]!
                : encoded();
      }
      if (n % 2 === 1) text += rng() < 0.5 ? encoded() : pick(rng, B64, 23 + (n % 5));
      if (n % 10 === 5) {
        // a secret encoded in a run just under, at and just over the 64 K bound: decoded only under it
        const long = Buffer.from(`DB_PASSWORD=${pick(rng, ALNUM, 20)} ${'lorem ipsum '.repeat(5000)}`)
          .toString('base64')
          .slice(0, 64 * 1024 - 1 + (n % 3));
        text += ' ' + long + (n % 20 === 5 ? '' : ' x');
      }
      expect(asciiCodes(text, false)).not.toBeNull();
      const bytes = scanEncodedRuns(text, true);
      expect(bytes).toEqual(scanEncodedRuns(text, false));
      expect(scanEncodedRuns(text, true, true)).toEqual(bytes); // in WebAssembly
      expect(usesByteSkip(asciiCodes(text, true)!)).toBe(true);
      found += bytes.length;
    }
    expect(found).toBeGreaterThan(50);
  });
  it('finds a run that ends at the end of the text or starts at its start, at every length around 24', () => {
    const rng = mulberry32(24);
    for (let len = 20; len <= 40; len++) {
      const secret = Buffer.from(`API_TOKEN=${pick(rng, ALNUM, 30)}`)
        .toString('base64')
        .slice(0, len);
      for (const pad of [4096, 4097, 4100, 4119]) {
        const filler = 'ab cd '.repeat(Math.ceil(pad / 6)).slice(0, pad);
        for (const text of [filler + secret, secret + filler, filler + secret + ' x'])
          for (const found of [scanEncodedRuns(text, true), scanEncodedRuns(text, true, true)])
            expect(found).toEqual(scanEncodedRuns(text, false));
      }
    }
  });
});

describe('keywords at the very end of the text', () => {
  // A skip that stops one byte early (or a bound off by one) misses only keywords that end at the
  // text's last byte; comparing the paths with each other would not see it when both are wrong, so
  // the literal positions are checked against a plain search and the generic keywords' prose hook
  // against where they are.
  const filler = (n: number): string => 'zq, '.repeat(Math.ceil(n / 4)).slice(0, n);
  const keywords = [
    ...new Set([
      ...GITLEAKS_RULES.flatMap((r) => r.keywords),
      ...KEYWORD_RULES.flatMap((r) => r.keywords),
      ...AUTOMATON_LITERALS.map((l) => l.toLowerCase()),
    ]),
  ];
  it('finds every literal and every generic keyword ending at the last byte, or one before it', () => {
    const generic = new Set(GITLEAKS_RULES.find((r) => r.id === 'generic-api-key')!.keywords);
    let checked = 0;
    for (const kw of keywords) {
      for (const tail of ['', ' ']) {
        for (const pad of [4096, 4097, 4098]) {
          const text = filler(pad) + kw + tail;
          const at = pad;
          const paths = [
            run(text, asciiCodes(text, true)),
            run(text, asciiCodes(text, false)),
            run(text, null),
          ];
          expect(paths[1]).toEqual(paths[0]);
          expect(paths[2]).toEqual(paths[0]);
          AUTOMATON_LITERALS.forEach((lit, li) => {
            if (lit.toLowerCase() === kw)
              expect({ kw, text: text.length, at: paths[0]!.first[li] }).toEqual({
                kw,
                text: text.length,
                at,
              });
          });
          if (generic.has(kw)) {
            const pairs: string[] = [];
            for (let k = 0; k < paths[0]!.prose.length; k += 2)
              pairs.push(`${paths[0]!.prose[k]}-${paths[0]!.prose[k + 1]}`);
            expect({ kw, pairs }).toEqual({ kw, pairs: expect.arrayContaining([`${at}-${at + kw.length}`]) });
          }
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
  });
});
