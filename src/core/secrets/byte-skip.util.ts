// The keyword automaton's skip from the root (ported-rules.util.ts, nextStartIn) as a WebAssembly
// function over bytes in its own linear memory: the same three bitmaps (three-byte prefixes, the
// prefixes of the two- and three-character keywords, a hash of the longer ones' first four bytes),
// the same answers, without a JavaScript loop's bounds checks and typed-array loads per position.
// A second function, `run`, steps the automaton itself over the bytes (its transition table, the
// classes of the characters and the three-class start table are copied into the same memory) and
// returns only where a keyword ends, so JavaScript runs once per keyword found rather than once per
// position the skip stops at and once per step after it.
// The module is a few hundred bytes assembled here at load time (no file, no download); where
// WebAssembly is missing the JavaScript loop runs instead.

/** Layout of the linear memory: the bitmaps, then the text's bytes (at most TEXT_MAX). */
const START_AT = 0; // 2^21 bits
const SHORT_AT = 0x40000; // 2^21 bits
const START4_AT = 0x80000; // 2^20 bits
const TEXT_AT = 0xa0000;
const PAGE = 0x10000;

type WasmApi = {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
};

export type ByteSkip = {
  /** The text's bytes go here (a view of the linear memory, TEXT_MAX long). */
  readonly bytes: Uint8Array;
  /** nextStartIn over bytes[0..n): the first position from i where a keyword can start, or -1. */
  readonly next: (i: number, n: number) => number;
  /**
   * The automaton's loop (scanPortedRules) from position i in state s: the first position from i at
   * which the state after reading its byte has an output, or -1 at the end of the text; that state
   * is then `state()`.
   */
  readonly run: (i: number, n: number, s: number) => number;
  readonly state: () => number;
  /**
   * The base64/hex-run probe (scanEncodedBlobs in pattern-scanner.util.ts) from probe position p:
   * the first probe at which a run of RUN_MIN or more characters of the run alphabet is found (its
   * bounds then `runStart()`, `runEnd()`, read as that loop reads them), or -1; the probes in shorter
   * runs are passed over as that loop passes them.
   */
  readonly probe: (p: number, n: number) => number;
  readonly runStart: () => number;
  readonly runEnd: () => number;
  /**
   * The same probe for the runs of WORD_RUN_MIN or more token characters ([A-Za-z0-9_-]), read to
   * their ends (no bound): where the separator and upper-case prefix scans of pattern-scanner.util.ts
   * look for tokens. The bounds are then `runStart()`, `runEnd()`.
   */
  readonly words: (p: number, n: number) => number;
  /** After `words`: WORD_SEP when the run holds '_' or '-', WORD_UPPER when it holds A-Z (ORed). */
  readonly runFlags: () => number;
  /** The first position from i (< n) whose byte is a digit 0-9, or -1: eight bytes at a time. */
  readonly digit: (i: number, n: number) => number;
};

/** What the run probe looks for: runs of at least RUN_MIN, read at most RUN_MAX back and on. */
export const RUN_MIN = 24;
export const RUN_MAX = 64 * 1024;
/** Base64 (standard and URL-safe) and hex: 1 for the characters of a run, 0 else (256 entries). */
const RUN_ALPHABET = new Uint8Array(256);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_')
  RUN_ALPHABET[ch.charCodeAt(0)] = 1;

/** The token runs `words` looks for: at least WORD_RUN_MIN characters of [A-Za-z0-9_-]. */
export const WORD_RUN_MIN = 16;
/** Their reach, beyond any text (the probe's bound, never met). */
const WORD_RUN_MAX = 1 << 30;
export const WORD_SEP = 2;
export const WORD_UPPER = 4;
const WORD_ALPHABET = new Uint8Array(256);
for (const ch of 'abcdefghijklmnopqrstuvwxyz0123456789') WORD_ALPHABET[ch.charCodeAt(0)] = 1;
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') WORD_ALPHABET[ch.charCodeAt(0)] = 1 | WORD_UPPER;
for (const ch of '_-') WORD_ALPHABET[ch.charCodeAt(0)] = 1 | WORD_SEP;

/** The keyword automaton, as scanPortedRules steps it (see buildAutomaton in ported-rules.util.ts). */
export type AutomatonTables = {
  /** transitions, state * classes + class */
  delta: Uint16Array;
  /** 1 for the states with an output */
  hasOutput: Uint8Array;
  /** the class of each byte (0 from 128 on) */
  classOf: Uint8Array;
  classes: number;
  /** states 1..lastDepth1 are one character deep */
  lastDepth1: number;
  /** 1 where a keyword starts with classes a, b, c (or is a, b): (a * classes + b) * classes + c */
  start3: Uint8Array;
};

const uleb = (x: number): number[] => {
  const out: number[] = [];
  do {
    let b = x & 0x7f;
    x >>>= 7;
    if (x !== 0) b |= 0x80;
    out.push(b);
  } while (x !== 0);
  return out;
};
const sleb = (x: number): number[] => {
  const out: number[] = [];
  for (;;) {
    const b = x & 0x7f;
    x >>= 7;
    if ((x === 0 && (b & 0x40) === 0) || (x === -1 && (b & 0x40) !== 0)) return [...out, b];
    out.push(b | 0x80);
  }
};
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const name = (s: string): number[] => [s.length, ...[...s].map((c) => c.charCodeAt(0))];

// Opcodes
const BLOCK = 0x02;
const LOOP = 0x03;
const IF = 0x04;
const ELSE = 0x05;
const END = 0x0b;
const BR = 0x0c;
const BR_IF = 0x0d;
const RETURN = 0x0f;
const VOID = 0x40;
const I32 = 0x7f;
const get = (l: number): number[] => [0x20, l];
const set = (l: number): number[] => [0x21, l];
const tee = (l: number): number[] => [0x22, l];
const c32 = (x: number): number[] => [0x41, ...sleb(x | 0)];
const load8 = (offset: number): number[] => [0x2d, 0, ...uleb(offset)];
const load16 = (offset: number): number[] => [0x2f, 1, ...uleb(offset)];
const store32 = (offset: number): number[] => [0x36, 2, ...uleb(offset)];
const CALL = 0x10;
const I64 = 0x7e;
const I64_LOAD = (offset: number): number[] => [0x29, 0, ...uleb(offset)]; // alignment hint 1
const I64_ADD = 0x7c;
const I64_AND = 0x83;
const I64_XOR = 0x85;
const I64_EQZ = 0x50;
const I64_CTZ = 0x7a;
const I32_WRAP_I64 = 0xa7;
/** i64.const of a 64-bit pattern (signed LEB128 of its two's complement value). */
const c64 = (x: bigint): number[] => {
  const out: number[] = [0x42];
  let v = BigInt.asIntN(64, x);
  for (;;) {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    if ((v === 0n && (b & 0x40) === 0) || (v === -1n && (b & 0x40) !== 0)) return [...out, b];
    out.push(b | 0x80);
  }
};
const SELECT = 0x1b;
const EQZ = 0x45;
const SUB = 0x6b;
const LT_U = 0x49;
const ADD = 0x6a;
const MUL = 0x6c;
const AND = 0x71;
const OR = 0x72;
const SHL = 0x74;
const SHR_U = 0x76;
const GE_S = 0x4e;
const LT_S = 0x48;

// Locals: 0 i, 1 n (parameters), 2 idx, 3 h.
const I = 0;
const N = 1;
const IDX = 2;
const H = 3;
/** `if (i + d >= n) return -1`: no room for d more bytes (i and n are locals 0 and 1 in both functions). */
const returnPastEnd = (d: number): number[] => [
  ...get(I),
  ...c32(d),
  ADD,
  ...get(N),
  GE_S,
  IF,
  VOID,
  ...c32(-1),
  RETURN,
  END,
];
/** `if (i >= n) return -1`: at the end of the text (i and n are locals 0 and 1 in every function). */
const returnAtEnd = (): number[] => [...get(I), ...get(N), GE_S, IF, VOID, ...c32(-1), RETURN, END];
/** `local++` */
const increment = (local: number): number[] => [...get(local), ...c32(1), ADD, ...set(local)];

/** Pushes bit x (the value of `local`) of the bitmap at `at`: 0 or 1. */
const bit = (local: number, at: number): number[] => [
  ...get(local),
  ...c32(3),
  SHR_U,
  ...load8(at),
  ...get(local),
  ...c32(7),
  AND,
  SHR_U,
  ...c32(1),
  AND,
];

const BODY: number[] = [
  // if (i + 1 >= n) return -1
  ...returnPastEnd(1),
  // idx = (b[i] << 7) | b[i + 1]
  ...get(I),
  ...load8(TEXT_AT),
  ...c32(7),
  SHL,
  ...get(I),
  ...load8(TEXT_AT + 1),
  OR,
  ...set(IDX),
  BLOCK,
  VOID,
  LOOP,
  VOID,
  // while (i + 2 < n)
  ...get(I),
  ...c32(2),
  ADD,
  ...get(N),
  GE_S,
  BR_IF,
  1,
  // idx = ((idx << 7) | b[i + 2]) & 0x1fffff
  ...get(IDX),
  ...c32(7),
  SHL,
  ...get(I),
  ...load8(TEXT_AT + 2),
  OR,
  ...c32(0x1fffff),
  AND,
  ...set(IDX),
  ...bit(IDX, START_AT),
  IF,
  VOID,
  ...bit(IDX, SHORT_AT),
  IF,
  VOID,
  ...get(I),
  RETURN,
  END,
  // if (i + 3 < n) { h = imul((idx << 7) | b[i + 3], 0x9e3779b1) >>> 12; if (START4 bit h) return i }
  ...get(I),
  ...c32(3),
  ADD,
  ...get(N),
  LT_S,
  IF,
  VOID,
  ...get(IDX),
  ...c32(7),
  SHL,
  ...get(I),
  ...load8(TEXT_AT + 3),
  OR,
  ...c32(0x9e3779b1),
  MUL,
  ...c32(12),
  SHR_U,
  ...set(H),
  ...bit(H, START4_AT),
  IF,
  VOID,
  ...get(I),
  RETURN,
  END,
  END,
  END,
  // i++
  ...increment(I),
  BR,
  0,
  END,
  END,
  // idx = (idx << 7) & 0x1fffff (class 0 past the end); return START bit ? i : -1
  ...get(IDX),
  ...c32(7),
  SHL,
  ...c32(0x1fffff),
  AND,
  ...set(IDX),
  ...bit(IDX, START_AT),
  IF,
  I32,
  ...get(I),
  ELSE,
  ...c32(-1),
  END,
  END,
];

// `run` (the loop of scanPortedRules in ported-rules.util.ts): locals 0 i, 1 n, 2 s (parameters), 3 j, 4 k.
const J = 3;
const KL = 4;
type RunLayout = {
  deltaAt: number;
  outAt: number;
  classAt: number;
  start3At: number;
  stateAt: number;
  alphabetAt: number;
  wordAlphabetAt: number;
};
function runBody(t: AutomatonTables, at: RunLayout): number[] {
  const S = 2;
  const K = t.classes;
  /** the class of the byte at i + d */
  const classAt = (d: number): number[] => [...get(I), ...load8(TEXT_AT + d), ...load8(at.classAt)];
  return [
    LOOP,
    VOID,
    // From the root: skip to where a keyword can start, take its first character.
    ...get(S),
    EQZ,
    IF,
    VOID,
    ...get(I),
    ...get(N),
    CALL,
    0,
    ...set(J),
    ...get(J),
    ...c32(0),
    LT_S,
    IF,
    VOID,
    ...c32(-1),
    RETURN,
    END,
    // s = delta[class(b[j])]; i = j + 1
    ...get(J),
    ...load8(TEXT_AT),
    ...load8(at.classAt),
    ...c32(1),
    SHL,
    ...load16(at.deltaAt),
    ...set(S),
    ...get(J),
    ...c32(1),
    ADD,
    ...set(I),
    BR,
    1,
    END,
    // if (i >= n) return -1
    ...returnAtEnd(),
    // k = class(b[i]); s = delta[s * K + k]
    ...classAt(0),
    ...set(KL),
    ...get(S),
    ...c32(K),
    MUL,
    ...get(KL),
    ADD,
    ...c32(1),
    SHL,
    ...load16(at.deltaAt),
    ...set(S),
    // One character deep (1 <= s <= lastDepth1): the next two characters must fit a keyword's start.
    ...get(S),
    ...c32(1),
    SUB,
    ...c32(t.lastDepth1),
    LT_U,
    IF,
    VOID,
    ...returnPastEnd(1),
    // start3[(k * K + class(b[i + 1])) * K + (i + 2 < n ? class(b[i + 2]) : 0)]
    ...get(KL),
    ...c32(K),
    MUL,
    ...classAt(1),
    ADD,
    ...c32(K),
    MUL,
    ...classAt(2),
    ...c32(0),
    ...get(I),
    ...c32(2),
    ADD,
    ...get(N),
    LT_S,
    SELECT,
    ADD,
    ...load8(at.start3At),
    EQZ,
    IF,
    VOID,
    ...c32(0),
    ...set(S),
    END,
    ...increment(I),
    BR,
    1,
    END,
    // An output: remember the state, return the position.
    ...get(S),
    ...load8(at.outAt),
    IF,
    VOID,
    ...c32(0),
    ...get(S),
    ...store32(at.stateAt),
    ...get(I),
    RETURN,
    END,
    ...increment(I),
    BR,
    0,
    END,
    ...c32(-1),
    END,
  ];
}

// `probe` and `words`: locals 0 p (as I), 1 n (parameters), 2 s, 3 e (and for `words` 4 t, 5 f);
// runs of `min` or more characters of the alphabet at `alphabetAt`, read at most `max` back and on.
// `flags`: the OR of the alphabet's entries over the run's bytes is kept too (`words`).
function probeBody(at: RunLayout, alphabetAt: number, min: number, max: number, flags = false): number[] {
  const P = I;
  const S = 2;
  const E = 3;
  const T = 4;
  const F = 5;
  /** 0 unless the byte at the address on the stack is in the run alphabet */
  const inRun = [...load8(TEXT_AT), ...load8(alphabetAt)];
  /** inRun, its value also ORed into f (with `flags`) */
  const inRunOr = flags ? [...inRun, ...tee(T), ...get(F), OR, ...set(F), ...get(T)] : inRun;
  return [
    LOOP,
    VOID,
    // if (p >= n) return -1 (p is local 0, as i)
    ...returnAtEnd(),
    // not in a run: the next probe
    ...get(P),
    ...inRun,
    EQZ,
    IF,
    VOID,
    ...get(P),
    ...c32(min),
    ADD,
    ...set(P),
    BR,
    1,
    END,
    // f = alphabet[b[p]]
    ...(flags ? [...get(P), ...inRun, ...set(F)] : []),
    // s = p; back while s > 0 && p - s < max && inRun(s - 1)
    ...get(P),
    ...set(S),
    BLOCK,
    VOID,
    LOOP,
    VOID,
    ...c32(0),
    ...get(S),
    GE_S,
    BR_IF,
    1,
    ...get(P),
    ...get(S),
    SUB,
    ...c32(max),
    GE_S,
    BR_IF,
    1,
    ...get(S),
    ...c32(1),
    SUB,
    ...inRunOr,
    EQZ,
    BR_IF,
    1,
    ...get(S),
    ...c32(1),
    SUB,
    ...set(S),
    BR,
    0,
    END,
    END,
    // e = p + 1; on while e < n && e - s <= max && inRun(e)
    ...get(P),
    ...c32(1),
    ADD,
    ...set(E),
    BLOCK,
    VOID,
    LOOP,
    VOID,
    ...get(E),
    ...get(N),
    GE_S,
    BR_IF,
    1,
    ...get(E),
    ...get(S),
    SUB,
    ...c32(max + 1),
    GE_S,
    BR_IF,
    1,
    ...get(E),
    ...inRunOr,
    EQZ,
    BR_IF,
    1,
    ...increment(E),
    BR,
    0,
    END,
    END,
    // too short: the next probe `min` past its end
    ...get(E),
    ...get(S),
    SUB,
    ...c32(min),
    LT_S,
    IF,
    VOID,
    ...get(E),
    ...c32(min),
    ADD,
    ...set(P),
    BR,
    1,
    END,
    ...c32(0),
    ...get(S),
    ...store32(at.stateAt + 4),
    ...c32(0),
    ...get(E),
    ...store32(at.stateAt + 8),
    ...(flags ? [...c32(0), ...get(F), ...store32(at.stateAt + 12)] : []),
    ...get(P),
    RETURN,
    END,
    ...c32(-1),
    END,
  ];
}

// `digit`: locals 0 i, 1 n (parameters), 2 x (i64). The bytes are ASCII (below 128), so adding 80
// to each sets its top bit when it is at least '0' (48) and adding 70 when it is above '9' (57), with
// no carry into the next byte: (x + 0x50..) & ~(x + 0x46..) & 0x80.. marks the digits of eight bytes,
// the lowest (the first, little-endian) found with ctz. The last bytes are read one by one.
function digitBody(): number[] {
  const X = 2;
  return [
    BLOCK,
    VOID,
    LOOP,
    VOID,
    // while (i + 8 <= n)
    ...get(I),
    ...c32(8),
    ADD,
    ...get(N),
    0x4a, // i32.gt_s
    BR_IF,
    1,
    ...get(I),
    ...I64_LOAD(TEXT_AT),
    0x21, // local.set x
    X,
    ...get(X),
    ...c64(0x5050505050505050n),
    I64_ADD,
    ...get(X),
    ...c64(0x4646464646464646n),
    I64_ADD,
    ...c64(-1n),
    I64_XOR,
    I64_AND,
    ...c64(0x8080808080808080n),
    I64_AND,
    0x22, // local.tee x
    X,
    I64_EQZ,
    EQZ,
    IF,
    VOID,
    // return i + (ctz(x) >> 3)
    ...get(I),
    ...get(X),
    I64_CTZ,
    I32_WRAP_I64,
    ...c32(3),
    SHR_U,
    ADD,
    RETURN,
    END,
    ...get(I),
    ...c32(8),
    ADD,
    ...set(I),
    BR,
    0,
    END,
    END,
    LOOP,
    VOID,
    ...returnAtEnd(),
    // if (b[i] - 48 < 10 unsigned) return i
    ...get(I),
    ...load8(TEXT_AT),
    ...c32(48),
    SUB,
    ...c32(10),
    LT_U,
    IF,
    VOID,
    ...get(I),
    RETURN,
    END,
    ...increment(I),
    BR,
    0,
    END,
    ...c32(-1),
    END,
  ];
}

function moduleBytes(pages: number, run: number[], probe: number[], words: number[]): Uint8Array {
  const func = [1, 2, I32, ...BODY]; // one group of two i32 locals
  const func2 = [1, 2, I32, ...run];
  const func3 = [1, 2, I32, ...probe];
  const func4 = [1, 4, I32, ...words]; // s, e, t, f
  const func5 = [1, 1, I64, ...digitBody()]; // x
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [2, 0x60, 2, I32, I32, 1, I32, 0x60, 3, I32, I32, I32, 1, I32]),
    ...section(3, [5, 0, 1, 0, 0, 0]),
    ...section(5, [1, 0, ...uleb(pages)]),
    ...section(7, [
      6,
      ...name('m'),
      0x02,
      0,
      ...name('next'),
      0x00,
      0,
      ...name('run'),
      0x00,
      1,
      ...name('probe'),
      0x00,
      2,
      ...name('words'),
      0x00,
      3,
      ...name('digit'),
      0x00,
      4,
    ]),
    ...section(10, [
      5,
      ...uleb(func.length),
      ...func,
      ...uleb(func2.length),
      ...func2,
      ...uleb(func3.length),
      ...func3,
      ...uleb(func4.length),
      ...func4,
      ...uleb(func5.length),
      ...func5,
    ]),
  ]);
}

/**
 * The skip over bitmaps `start` (2^21 bits), `short` (2^21 bits) and `start4` (2^20 bits), and the
 * automaton's loop over its tables, for texts of at most textMax bytes; null where WebAssembly is not
 * available.
 */
export function createByteSkip(
  start: Int32Array,
  short: Int32Array,
  start4: Int32Array,
  automaton: AutomatonTables,
  textMax: number,
): ByteSkip | null {
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  // The bitmaps are copied as bytes: that reads them right on a little-endian host only.
  if (wasm === undefined || new Uint8Array(new Uint32Array([1]).buffer)[0] !== 1) return null;
  try {
    // The automaton's tables after the text (and 4 bytes the loops may read past its end).
    const align = (x: number): number => (x + 7) & ~7;
    const deltaAt = align(TEXT_AT + textMax + 4);
    const outAt = align(deltaAt + automaton.delta.byteLength);
    const classAt = align(outAt + automaton.hasOutput.length);
    const start3At = align(classAt + 256);
    const stateAt = align(start3At + automaton.start3.length);
    const alphabetAt = align(stateAt + 16);
    const wordAlphabetAt = alphabetAt + 256;
    const layout: RunLayout = { deltaAt, outAt, classAt, start3At, stateAt, alphabetAt, wordAlphabetAt };
    const pages = Math.ceil((wordAlphabetAt + 256) / PAGE);
    const bytes = moduleBytes(
      pages,
      runBody(automaton, layout),
      probeBody(layout, alphabetAt, RUN_MIN, RUN_MAX),
      probeBody(layout, wordAlphabetAt, WORD_RUN_MIN, WORD_RUN_MAX, true),
    );
    const instance = new wasm.Instance(new wasm.Module(bytes), {});
    const memory = instance.exports['m'] as { buffer: ArrayBuffer };
    const next = instance.exports['next'] as (i: number, n: number) => number;
    const run = instance.exports['run'] as (i: number, n: number, s: number) => number;
    const probe = instance.exports['probe'] as (p: number, n: number) => number;
    const words = instance.exports['words'] as (p: number, n: number) => number;
    const digit = instance.exports['digit'] as (i: number, n: number) => number;
    const heap = new Uint8Array(memory.buffer);
    // The bitmaps' words as little-endian bytes: bit x is bit (x & 7) of byte x >> 3 either way.
    const put = (bits: ArrayBufferView, at: number): void => {
      heap.set(new Uint8Array(bits.buffer, bits.byteOffset, bits.byteLength), at);
    };
    put(start, START_AT);
    put(short, SHORT_AT);
    put(start4, START4_AT);
    put(automaton.delta, deltaAt); // Uint16 as little-endian bytes, as load16 reads them
    put(automaton.hasOutput, outAt);
    put(automaton.classOf.subarray(0, 256), classAt);
    put(automaton.start3, start3At);
    put(RUN_ALPHABET, alphabetAt);
    put(WORD_ALPHABET, wordAlphabetAt);
    const stateView = new Int32Array(memory.buffer, stateAt, 4);
    return {
      bytes: new Uint8Array(memory.buffer, TEXT_AT, textMax),
      next,
      run,
      state: () => stateView[0]!,
      probe,
      runStart: () => stateView[1]!,
      runEnd: () => stateView[2]!,
      words,
      runFlags: () => stateView[3]!,
      digit,
    };
  } catch {
    return null;
  }
}
