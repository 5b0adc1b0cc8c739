// Seeded randomness and encodings for the held-out corpus. Nothing here is a secret: every
// secret-shaped value is assembled at run time from these helpers and split prefixes.

export type Rng = {
  next(): number;
  int(lo: number, hi: number): number;
  pick(xs: string): string;
  pick<T>(xs: readonly T[]): T;
  str(alphabet: string, n: number): string;
  bytes(n: number): Buffer;
  chance(p: number): boolean;
};

/** sfc32 seeded through splitmix32: small, fast, and identical on every platform. */
export function makeRng(seed: number): Rng {
  let s = seed >>> 0 || 0x9e3779b9;
  const split = (): number => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = split();
  let b = split();
  let c = split();
  let d = split();
  const next = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  const int = (lo: number, hi: number): number => lo + Math.floor(next() * (hi - lo + 1));
  return {
    next,
    int,
    pick: <T>(xs: readonly T[] | string): T => xs[Math.floor(next() * xs.length)] as T,
    str: (alphabet: string, n: number): string => {
      let out = '';
      for (let i = 0; i < n; i++) out += alphabet[Math.floor(next() * alphabet.length)];
      return out;
    },
    bytes: (n: number): Buffer => {
      const buf = Buffer.alloc(n);
      for (let i = 0; i < n; i++) buf[i] = Math.floor(next() * 256);
      return buf;
    },
    chance: (p: number): boolean => next() < p,
  };
}

export const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const LOWER = UPPER.toLowerCase();
export const DIGITS = '0123456789';
export const HEX = DIGITS + 'abcdef';
export const HEX_UP = HEX.toUpperCase();
export const ALNUM = UPPER + LOWER + DIGITS;
export const LOWER_ALNUM = LOWER + DIGITS;
export const UPPER_ALNUM = UPPER + DIGITS;
export const B64 = ALNUM + '+/';
export const B64URL = ALNUM + '-_';
export const BASE32_LOWER = LOWER + '234567';
export const BASE32_UPPER = UPPER + '234567';
export const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

/** Joins pieces so no complete provider prefix is written as one literal in this folder. */
export const j = (...parts: string[]): string => parts.join('');

export const b64 = (x: string | Buffer): string => Buffer.from(x).toString('base64');
export const b64url = (x: string | Buffer): string => Buffer.from(x).toString('base64url');

const CRC_TABLE = (() => {
  const t: number[] = [];
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t.push(c >>> 0);
  }
  return t;
})();

export function crc32(text: string): number {
  let c = 0xffffffff;
  for (const byte of Buffer.from(text)) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const BASE62 = DIGITS + UPPER + LOWER;
export function base62(n: number, width: number): string {
  let out = '';
  let v = n;
  while (v > 0) {
    out = BASE62[v % 62] + out;
    v = Math.floor(v / 62);
  }
  return out.padStart(width, '0');
}

export function uuid(r: Rng): string {
  const h = r.str(HEX, 32);
  const variant = r.pick(['8', '9', 'a', 'b']);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Wraps base64 text at `width` columns, as PEM and OpenSSH armour do. */
export function wrap(text: string, width = 64): string[] {
  const lines: string[] = [];
  for (let i = 0; i < text.length; i += width) lines.push(text.slice(i, i + width));
  return lines;
}
