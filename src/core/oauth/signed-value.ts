// Values that travel through the browser (cookies) signed with an HMAC, so that the server can
// trust what it set: `<payload>.<base64url HMAC-SHA256>`. The key comes from ENCRYPTION_KEY.
import { createHmac, timingSafeEqual } from 'node:crypto';

export function signValue(payload: string, key: Buffer): string {
  return `${payload}.${createHmac('sha256', key).update(payload, 'utf8').digest('base64url')}`;
}

export function verifySignedValue(signed: string | undefined, key: Buffer): string | null {
  if (!signed) return null;
  const dot = signed.lastIndexOf('.');
  if (dot <= 0) return null;
  const payload = signed.slice(0, dot);
  const expected = Buffer.from(signValue(payload, key).slice(dot + 1));
  const given = Buffer.from(signed.slice(dot + 1));
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return payload;
}

/** Parses a Cookie header into name -> value (first occurrence wins). */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (cookies.has(name)) continue;
    try {
      cookies.set(name, decodeURIComponent(part.slice(eq + 1).trim()));
    } catch {
      // a malformed value is treated as absent
    }
  }
  return cookies;
}

/** A `__Host-` cookie: Secure, HttpOnly, Path=/, no Domain, SameSite=Lax. */
export function hostCookie(name: string, value: string, maxAgeSeconds: number): string {
  return `__Host-${name}=${encodeURIComponent(value)}; Max-Age=${maxAgeSeconds}; Path=/; Secure; HttpOnly; SameSite=Lax`;
}
