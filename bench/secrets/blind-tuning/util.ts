// Helpers for the blind tuning corpus: a seeded PRNG, alphabets, encoders and checksums.
// Every secret-shaped value is produced at run time; no such literal lives in this folder.

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  constructor(seed: number) {
    this.a = 0x9e3779b9 ^ seed;
    this.b = 0x243f6a88 + seed * 7;
    this.c = 0xb7e15162 ^ (seed * 31);
    this.d = seed | 1;
    for (let i = 0; i < 20; i++) this.next();
  }
  // sfc32
  next(): number {
    this.a >>>= 0;
    this.b >>>= 0;
    this.c >>>= 0;
    this.d >>>= 0;
    let t = (this.a + this.b) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.d = (this.d + 1) | 0;
    t = (t + this.d) | 0;
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  pick<T>(arr: readonly T[]): T {
    const v = arr[this.int(arr.length)];
    if (v === undefined) throw new Error('pick from empty array');
    return v;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  str(n: number, alphabet: string): string {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[this.int(alphabet.length)];
    return s;
  }
  bytes(n: number): Buffer {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) b[i] = this.int(256);
    return b;
  }
}

export const LOW = 'abcdefghijklmnopqrstuvwxyz';
export const UP = LOW.toUpperCase();
export const DIG = '0123456789';
export const AN = UP + LOW + DIG;
export const LAN = LOW + DIG;
export const UAN = UP + DIG;
export const HEX = '0123456789abcdef';
export const HEXU = HEX.toUpperCase();
export const B64 = AN + '+/';
export const B64U = AN + '-_';
export const B32 = UP + '234567';
export const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
export const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
let printable = '';
for (let c = 33; c <= 126; c++) printable += String.fromCharCode(c);
export const PRINT = printable;

export const J = (...parts: string[]): string => parts.join('');

export function b64(s: string | Buffer): string {
  return (typeof s === 'string' ? Buffer.from(s, 'utf8') : s).toString('base64');
}
export function b64url(s: string | Buffer): string {
  return b64(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const CRC_TABLE: number[] = (() => {
  const t: number[] = [];
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t.push(c >>> 0);
  }
  return t;
})();
export function crc32(s: string): number {
  let c = 0xffffffff;
  for (const ch of Buffer.from(s, 'utf8')) c = (CRC_TABLE[(c ^ ch) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
const B62 = DIG + UP + LOW;
export function base62(n: number, width: number): string {
  let s = '';
  while (n > 0) {
    s = B62[n % 62] + s;
    n = Math.floor(n / 62);
  }
  return s.padStart(width, '0');
}

/** Go's encoding/json: compact, with <, >, & and U+2028/2029 escaped. */
export function goJson(v: unknown): string {
  return JSON.stringify(v)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
/** How a string appears inside a Go-encoded JSON string literal (char-wise, so substrings survive). */
export function goEsc(s: string): string {
  return goJson(s).slice(1, -1);
}

/** A char-wise transform: substrings of the input map to substrings of the output. */
export function charwise(map: Record<string, string>): (s: string) => string {
  return (s: string) => {
    let out = '';
    for (const ch of s) out += map[ch] ?? ch;
    return out;
  };
}
export const ident = (s: string): string => s;
export const dqEsc = charwise({ '\\': '\\\\', '"': '\\"', '\n': '\\n' });
export const shDqEsc = charwise({ '\\': '\\\\', '"': '\\"', $: '\\$', '`': '\\`', '\n': '\\n' });
export const xmlEsc = charwise({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' });
export const nlEsc = charwise({ '\n': '\\n' });
export const urlEnc = (s: string): string =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());

export function isoDate(r: Rng): string {
  const d = new Date(Date.UTC(2025, 0, 1) + r.int(700) * 86400000 + r.int(86400) * 1000);
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
export function goDate(r: Rng): string {
  // Go's time.Time marshals a UTC time with a trailing Z, other zones with their offset
  const d = isoDate(r);
  if (r.chance(0.7)) return d;
  const t = new Date(Date.parse(d) + 3600000);
  return t.toISOString().replace(/\.\d{3}Z$/, '+01:00');
}
export function uuid(r: Rng): string {
  const h = r.str(32, HEX);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${r.pick(['8', '9', 'a', 'b'])}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
export function sha1(r: Rng): string {
  return r.str(40, HEX);
}
