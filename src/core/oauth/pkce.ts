// PKCE (RFC 7636), S256 only: "plain" would hand the verifier to anyone who sees the authorization
// request, and OAuth 2.1 / the MCP specification require S256.
import { createHash, timingSafeEqual } from 'node:crypto';

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** Why the authorization request's PKCE parameters are refused, or null. */
export function pkceRequestProblem(challenge: unknown, method: unknown): string | null {
  if (challenge === undefined || challenge === '') return 'code_challenge is required (PKCE with S256)';
  if (method === undefined || method === '') return 'code_challenge_method=S256 is required';
  if (method !== 'S256') return 'only code_challenge_method=S256 is supported';
  if (typeof challenge !== 'string' || !CHALLENGE.test(challenge))
    return 'code_challenge must be the base64url SHA-256 of the verifier (43 characters)';
  return null;
}

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export function verifyPkce(verifier: unknown, challenge: string): boolean {
  if (typeof verifier !== 'string' || !VERIFIER.test(verifier)) return false;
  const a = Buffer.from(s256(verifier));
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}
