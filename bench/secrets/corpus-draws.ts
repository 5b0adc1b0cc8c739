// Tuning-corpus additions (issue 12, tenth pass): uniform draws and the look-alikes found on main,
// written from the tuning side only (no held-out sample or miss was read).
// The earlier corpora draw their values through helpers that force both cases and a digit (`key`,
// `mpw`, `pw`: "never a word"), so a rule that asks for a digit or for `[A-Za-z0-9]` only never met a
// value that lacks one. A writer who draws a password as N characters of one alphabet gets a
// letters-only value one time in twenty (16 of base62) and an `&`, a `!` or a `%` in most draws of a
// symbol alphabet. The secret formats here draw uniformly, in the syntaxes Gitea bodies carry.
// The look-alikes are values under a secret-sounding name that are not secrets (fingerprints, digests,
// go.sum lines of a module named `api`, CI cache keys), which the engine on main masked.
// Secrets are drawn at run time from the seeded PRNG; prefixes are joined from pieces.
import type { NegativeFormat } from './corpus';
import { A, B, D, H, n } from './corpus-kit';

export const DRAWS_NEGATIVE_FORMATS: NegativeFormat[] = [
  // A fingerprint, digest or checksum of a key is public: it identifies the key, it does not open anything.
  n('key-fingerprint-hex', (pick) =>
    pick('ab', 1) === 'a'
      ? `API_KEY_FINGERPRINT=${pick(H, 64)}`
      : `export DEPLOY_KEY_FINGERPRINT="${pick(H, 40)}"`,
  ),
  n('token-sha256-hex', (pick) =>
    pick('ab', 1) === 'a' ? `TOKEN_SHA256=${pick(H, 64)}` : `api_token_sha256: ${pick(H, 64)}`,
  ),
  n('secret-digest-hex', (pick) =>
    pick('ab', 1) === 'a' ? `SECRET_DIGEST=${pick(H, 32)}` : `client_secret_checksum = "${pick(H, 64)}"`,
  ),
  // go.sum: a module whose path holds `api` (the generic rule's keyword) and its h1: hash.
  n('go-sum-api-module', (pick) => {
    const v = `v1.${pick(D, 1)}.${pick(D, 1)}`;
    const mod = pick('ab', 1) === 'a' ? 'github.com/acme/api-client' : 'google.golang.org/api';
    return `${mod} ${v} h1:${pick(B, 43)}=\n${mod} ${v}/go.mod h1:${pick(B, 43)}=`;
  }),
  // CI cache keys: a tool, `cache`, and a random or hashed suffix (actions/cache, Gitea runners).
  n('ci-cache-key', (pick) => {
    const tool = ['npm', 'yarn', 'pnpm', 'pip', 'gradle', 'cargo'][Math.floor(Number(pick(D, 1)) / 2)]!;
    return pick('ab', 1) === 'a'
      ? `Cache restored from key: ${tool}-cache-${pick(A, 32)}`
      : `  key: ${tool}-cache-${pick(A, 40)}`;
  }),
];
