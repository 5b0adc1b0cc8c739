// Secret-shaped strings for tests, built at run time from pieces so no literal sits in the repo.
import { mulberry32, pick } from '../../../bench/secrets/corpus';

const rng = mulberry32(42);
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const B64 = ALNUM + '+/';

export const githubToken = (): string => ['gh', 'p_'].join('') + pick(rng, ALNUM, 36);
export const awsKeyId = (): string =>
  ['AK', 'IA'].join('') + pick(rng, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16);
export const giteaToken = (): string => pick(rng, '0123456789abcdef', 40);
export const privateKeyPem = (label = 'RSA PRIVATE KEY'): string =>
  [
    ['-----BEG', 'IN ', label, '-----'].join(''),
    ...Array.from({ length: 8 }, () => pick(rng, B64, 64)),
    ['-----EN', 'D ', label, '-----'].join(''),
  ].join('\n');
export const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
export const unb64 = (s: string): string => Buffer.from(s, 'base64').toString('utf8');
export const randomWord = (n: number): string => pick(rng, ALNUM, n);
