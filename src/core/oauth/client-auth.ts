// Client authentication at the token and revocation endpoints (OAuth 2.1 section 2.4, RFC 6749
// 2.3.1): public clients name themselves with `client_id` only ("none"); confidential ones
// registered through DCR prove a secret, in HTTP Basic ("client_secret_basic") or in the form
// ("client_secret_post"), exactly the way they registered. Secrets are 256 random bits, stored
// only as SHA-256 (like every token here), compared in constant time.
import { timingSafeEqual } from 'node:crypto';
import { hashToken } from './tokens';

export const CLIENT_AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post'] as const;
export type ClientAuthMethod = (typeof CLIENT_AUTH_METHODS)[number];

export const isClientAuthMethod = (value: unknown): value is ClientAuthMethod =>
  typeof value === 'string' && (CLIENT_AUTH_METHODS as readonly string[]).includes(value);

/** What the request presented: from the Authorization header and the form. */
export type PresentedCredentials = {
  basic: { clientId: string; secret: string } | null;
  /** The Authorization header is Basic but cannot be decoded. */
  basicMalformed: boolean;
  formClientId: string | null;
  formSecret: string | null;
};

/** RFC 6749 2.3.1: Basic with the form-urlencoded client id and secret. Other schemes are ignored. */
export function presentedCredentials(
  authorization: string | undefined,
  form: URLSearchParams,
): PresentedCredentials {
  const out: PresentedCredentials = {
    basic: null,
    basicMalformed: false,
    formClientId: form.get('client_id'),
    formSecret: form.get('client_secret'),
  };
  const m = authorization ? /^Basic[ ]+([A-Za-z0-9+/=]+)[ ]*$/i.exec(authorization) : null;
  if (!m) {
    out.basicMalformed = authorization !== undefined && /^Basic\b/i.test(authorization);
    return out;
  }
  const decoded = Buffer.from(m[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) {
    out.basicMalformed = true;
    return out;
  }
  try {
    const unform = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    out.basic = { clientId: unform(decoded.slice(0, colon)), secret: unform(decoded.slice(colon + 1)) };
  } catch {
    out.basicMalformed = true;
  }
  return out;
}

export type ClientAuthVerdict =
  | { ok: true; clientId: string; authenticated: boolean }
  | { ok: false; status: 400 | 401; error: 'invalid_request' | 'invalid_client'; message: string };

const refuse = (message: string): ClientAuthVerdict => ({
  ok: false,
  status: 401,
  error: 'invalid_client',
  message,
});

/**
 * Which client is asking, and whether it proved it. `registered` is the client's registration
 * (null: unknown client id, which the grant checks then refuse as before; metadata-document
 * clients are always public).
 */
export function authenticateClient(
  presented: PresentedCredentials,
  registered: { method: string; secretHash: string | null; revoked: boolean } | null,
): ClientAuthVerdict {
  if (presented.basicMalformed) return refuse('the Basic credentials cannot be decoded');
  if (presented.basic && presented.formSecret !== null)
    return {
      ok: false,
      status: 400,
      error: 'invalid_request',
      message: 'use one client authentication method, not Basic and client_secret together',
    };
  const clientId = presented.basic?.clientId ?? presented.formClientId;
  if (!clientId) return refuse('client_id is required');
  if (presented.basic && presented.formClientId !== null && presented.formClientId !== clientId)
    return refuse('client_id in the form differs from the Basic credentials');
  const method = registered?.method ?? 'none';
  const secret = presented.basic?.secret ?? presented.formSecret;
  if (method === 'none') {
    if (secret !== null)
      return refuse('this client is public (token_endpoint_auth_method "none"): send no secret');
    return { ok: true, clientId, authenticated: false };
  }
  if (registered?.revoked) return refuse('this client has been revoked');
  if (method === 'client_secret_basic' && !presented.basic)
    return refuse('this client authenticates with HTTP Basic (client_secret_basic)');
  if (method === 'client_secret_post' && presented.formSecret === null)
    return refuse('this client authenticates with client_secret in the form (client_secret_post)');
  if (!secret || !registered?.secretHash || !sameHash(hashToken(secret), registered.secretHash))
    return refuse('the client secret is not valid');
  return { ok: true, clientId, authenticated: true };
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
