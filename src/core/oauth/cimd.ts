// Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, the MCP
// specification's preferred registration): the client_id is an HTTPS URL whose document
// describes the client. The decisions here are pure; fetching (with the limits) is in
// src/infra/oauth/cimd-fetcher.ts.
import { isIP } from 'node:net';
import { redirectUriProblem } from './redirect-uri';

export const CIMD_MAX_BYTES = 5 * 1024;
export const CIMD_TIMEOUT_MS = 10_000;

/** True when a client_id is meant as a metadata document URL (an https URL, or an allow-listed origin). */
export function looksLikeCimdClientId(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

/**
 * Why a client_id URL may not be fetched, or null. HTTPS with a path, no userinfo, fragment or
 * dot segments; plain HTTP only for origins in `allowHttpOrigins` (tests, loopback development).
 */
export function cimdUrlProblem(clientId: string, allowHttpOrigins: readonly string[]): string | null {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return 'client_id is not a URL';
  }
  if (url.href !== clientId) return 'client_id must be in normalised form (no dot segments, lower-case host)';
  if (url.username || url.password) return 'client_id must not contain userinfo';
  if (url.hash || clientId.includes('#')) return 'client_id must not contain a fragment';
  if (url.pathname === '/' || url.pathname === '') return 'client_id must have a path';
  if (/(^|\/)\.\.?(\/|$)/.test(url.pathname)) return 'client_id must not contain dot segments';
  const allowed = allowHttpOrigins.map((o) => o.replace(/\/$/, '').toLowerCase()).includes(url.origin);
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && allowed) return null;
  return 'client_id must be an https URL';
}

/** True for addresses a metadata fetch must never reach: loopback, private, link-local, special use. */
export function isForbiddenAddress(address: string): boolean {
  const kind = isIP(address);
  if (kind === 4) return forbiddenV4(address);
  if (kind === 6) {
    const a = address.toLowerCase();
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
    if (mapped) return forbiddenV4(mapped[1] as string);
    if (a === '::' || a === '::1') return true;
    const first = parseInt(a.split(':')[0] || '0', 16);
    if ((first & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
    if ((first & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
    if ((first & 0xff00) === 0xff00) return true; // multicast
    if (a.startsWith('64:ff9b:') || a.startsWith('2001:db8') || a.startsWith('100::')) return true;
    return false;
  }
  return true;
}

function forbiddenV4(address: string): boolean {
  const [a, b] = address.split('.').map(Number) as [number, number, number, number];
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224
  );
}

export type ClientMetadata = {
  clientId: string;
  clientName: string;
  redirectUris: string[];
  clientUri: string | null;
  logoUri: string | null;
};

export type CimdValidation = { ok: true; client: ClientMetadata } | { ok: false; message: string };

/** Checks a fetched document: JSON object, client_id equal to its URL, a name, valid redirect URIs, no secrets. */
export function validateCimdDocument(doc: unknown, url: string): CimdValidation {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
    return { ok: false, message: 'the document is not a JSON object' };
  const d = doc as Record<string, unknown>;
  if (d.client_id !== url) return { ok: false, message: 'the document client_id does not equal its URL' };
  if (typeof d.client_name !== 'string' || d.client_name.trim() === '')
    return { ok: false, message: 'client_name is required' };
  if (!Array.isArray(d.redirect_uris) || d.redirect_uris.length === 0)
    return { ok: false, message: 'redirect_uris must be a non-empty array' };
  for (const uri of d.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) return { ok: false, message: `redirect_uris: ${String(uri).slice(0, 100)} ${problem}` };
  }
  if ('client_secret' in d || 'client_secret_expires_at' in d)
    return { ok: false, message: 'a metadata document must not carry a client secret' };
  const method = d.token_endpoint_auth_method;
  if (method !== undefined && method !== 'none')
    return {
      ok: false,
      message: 'only token_endpoint_auth_method "none" is supported for metadata documents',
    };
  if ('jwks' in d) return { ok: false, message: 'embedded key material (jwks) is not accepted' };
  return {
    ok: true,
    client: {
      clientId: url,
      clientName: d.client_name.trim().slice(0, 200),
      redirectUris: d.redirect_uris as string[],
      clientUri: typeof d.client_uri === 'string' ? d.client_uri : null,
      logoUri: typeof d.logo_uri === 'string' ? d.logo_uri : null,
    },
  };
}

/** Seconds a fetched document may be cached: its Cache-Control max-age, within [0, cap]. */
export function cacheSeconds(cacheControl: string | null, capSeconds: number): number {
  if (!cacheControl) return Math.min(300, capSeconds);
  const cc = cacheControl.toLowerCase();
  if (/\b(no-store|no-cache|private)\b/.test(cc)) return 0;
  const m = /\bmax-age\s*=\s*(\d+)/.exec(cc);
  if (!m) return Math.min(300, capSeconds);
  return Math.min(Number(m[1]), capSeconds);
}
