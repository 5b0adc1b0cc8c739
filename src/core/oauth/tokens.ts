// Tokens this authorization server issues: 256 random bits with a prefix naming the kind (so that
// they are recognisable in logs and by secret scanners), stored only as their SHA-256.
import { createHash, randomBytes } from 'node:crypto';

export type IssuedKind = 'access' | 'refresh' | 'code' | 'client_secret';

const PREFIX: Record<IssuedKind, string> = {
  access: 'aegis_at_',
  refresh: 'aegis_rt_',
  code: 'aegis_ac_',
  client_secret: 'aegis_cs_',
};

export function newToken(kind: IssuedKind): string {
  return PREFIX[kind] + randomBytes(32).toString('base64url');
}

export function tokenKind(token: string): IssuedKind | null {
  for (const [kind, prefix] of Object.entries(PREFIX))
    if (token.startsWith(prefix)) return kind as IssuedKind;
  return null;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function randomId(bytes = 16): string {
  return randomBytes(bytes).toString('base64url');
}
