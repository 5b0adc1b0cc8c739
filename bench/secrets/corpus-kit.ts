// Shared helpers of the tuning-corpus generators (corpus-generalise.ts, corpus-recall.ts and the
// later additions): character sets, the seeded picker and the small builders of secret and negative
// formats. Every secret is drawn at run time from the seeded PRNG; armour and prefixes are joined from
// pieces, so no secret-shaped literal is in the repository.
import type { Rng, SecretFormat } from './corpus';

export const U = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const L = 'abcdefghijklmnopqrstuvwxyz';
export const D = '0123456789';
export const A = U + L + D;
export const H = '0123456789abcdef';
/** URL-safe base64 alphabet. */
export const W = A + '_-';
/** Standard base64 alphabet. */
export const B = A + '+/';

/** Draws `n` characters of `set` from the format's PRNG. */
export type Pick = (set: string, n: number) => string;
export const pk = (rng: Rng, set: string, n: number): string => {
  let s = '';
  for (let i = 0; i < n; i++) s += set[Math.floor(rng() * set.length)];
  return s;
};
/** Joins pieces (prefixes are written split so the source holds no secret shape). */
export const j = (...p: string[]): string => p.join('');
export const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
export const uuid = (pick: Pick): string =>
  `${pick(H, 8)}-${pick(H, 4)}-4${pick(H, 3)}-a${pick(H, 3)}-${pick(H, 12)}`;
/** A password-like value: letters, then digits, so it is never a plain word. */
export const pw = (pick: Pick): string => pick(A, 12) + pick(D, 2);
export const mk = (secret: string, line: string): { secret: string; line: string } => ({ secret, line });
export const BEGIN = (label: string): string => j('-----BEG', 'IN ', label, '-----');
export const END = (label: string): string => j('-----EN', 'D ', label, '-----');
export const pem = (label: string, body: string[]): string => [BEGIN(label), ...body, END(label)].join('\n');
/** A secret format whose maker draws through `pick`. */
export const f = (name: string, make: (pick: Pick) => { secret: string; line: string }): SecretFormat => ({
  name,
  make: (r) => make((set, n) => pk(r, set, n)),
});
/** A hard-negative format whose maker draws through `pick`. */
export const n = (
  name: string,
  make: (pick: Pick) => string,
): { name: string; make: (rng: Rng) => string } => ({
  name,
  make: (r) => make((set, k) => pk(r, set, k)),
});
