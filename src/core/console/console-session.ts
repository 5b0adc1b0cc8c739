// The console's server-side session, as pure decisions: the cookie that names it (the random id
// is the only thing the browser holds; the store keeps its SHA-256), when it has expired
// (absolute lifetime and idle time), and the CSRF token every change must carry (an HMAC of the
// session id, so it needs no storage and dies with the session).
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A session ends this long after sign-in, whatever happens. */
export const CONSOLE_SESSION_LIFETIME_MS = 8 * 60 * 60 * 1000;
/** ...and sooner when unused for this long. */
export const CONSOLE_SESSION_IDLE_MS = 30 * 60 * 1000;
/** last_seen_at is written at most this often (not on every request). */
export const CONSOLE_SESSION_TOUCH_MS = 60 * 1000;

export const CSRF_HEADER = 'x-csrf-token';

export type ConsoleCookie = { name: string; secure: boolean };

/**
 * `__Host-` (Secure, Path=/, no Domain) whenever the browser will accept it: behind TLS, or on a
 * loopback host (browsers treat http://localhost as a secure context). On plain http elsewhere
 * a Secure cookie would be dropped, so the name loses its prefix there.
 */
export function consoleCookie(publicUrl: string): ConsoleCookie {
  const url = new URL(publicUrl);
  const loopback =
    ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname) || url.hostname.endsWith('.localhost');
  if (url.protocol === 'https:' || loopback) return { name: '__Host-aegis_console', secure: true };
  return { name: 'aegis_console', secure: false };
}

export function setCookieHeader(cookie: ConsoleCookie, value: string, maxAgeMs: number): string {
  const parts = [
    `${cookie.name}=${value}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${Math.max(0, Math.floor(maxAgeMs / 1000))}`,
  ];
  if (cookie.secure) parts.push('Secure');
  return parts.join('; ');
}

export const clearCookieHeader = (cookie: ConsoleCookie): string => setCookieHeader(cookie, '', 0);

/** The value of one cookie in a Cookie header, or null. */
export function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
    }
  }
  return null;
}

export const newSessionId = (): string => randomBytes(32).toString('base64url');
export const sessionKey = (sessionId: string): string => createHash('sha256').update(sessionId).digest('hex');

export function csrfTokenFor(sessionId: string): string {
  return createHmac('sha256', sessionId).update('aegis-console-csrf').digest('base64url');
}

export function csrfValid(sessionId: string, presented: string | undefined): boolean {
  if (!presented) return false;
  const expected = Buffer.from(csrfTokenFor(sessionId));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export type StoredSession = { createdAt: number; lastSeenAt: number; expiresAt: number };

export type SessionState = { live: true; touch: boolean } | { live: false; reason: 'expired' | 'idle' };

export function sessionState(session: StoredSession, now: number): SessionState {
  if (now >= session.expiresAt) return { live: false, reason: 'expired' };
  if (now - session.lastSeenAt >= CONSOLE_SESSION_IDLE_MS) return { live: false, reason: 'idle' };
  return { live: true, touch: now - session.lastSeenAt >= CONSOLE_SESSION_TOUCH_MS };
}

/** A change (anything but GET/HEAD/OPTIONS) needs the CSRF token. */
export const isChange = (method: string): boolean =>
  !['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase());
