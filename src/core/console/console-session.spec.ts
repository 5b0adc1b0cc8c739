import {
  CONSOLE_SESSION_IDLE_MS,
  CONSOLE_SESSION_LIFETIME_MS,
  consoleCookie,
  cookieValue,
  csrfTokenFor,
  csrfValid,
  isChange,
  newSessionId,
  sessionKey,
  sessionState,
  setCookieHeader,
} from './console-session';

describe('console session', () => {
  it('uses a __Host- Secure cookie behind TLS and on loopback, a plain one on http elsewhere', () => {
    expect(consoleCookie('https://mcp.example.com')).toEqual({ name: '__Host-aegis_console', secure: true });
    expect(consoleCookie('http://localhost:3000')).toEqual({ name: '__Host-aegis_console', secure: true });
    expect(consoleCookie('http://127.0.0.1:3000')).toEqual({ name: '__Host-aegis_console', secure: true });
    expect(consoleCookie('http://mcp.internal:3000')).toEqual({ name: 'aegis_console', secure: false });
  });

  it('sets an httpOnly, SameSite=Strict cookie on Path=/ without Domain', () => {
    const header = setCookieHeader(consoleCookie('https://x.example'), 'v', 3_600_000);
    expect(header).toBe('__Host-aegis_console=v; Path=/; HttpOnly; SameSite=Strict; Max-Age=3600; Secure');
    expect(header).not.toMatch(/Domain=/i);
    expect(setCookieHeader(consoleCookie('http://mcp.internal'), 'v', 1000)).not.toContain('Secure');
  });

  it('reads only a well-formed session id from the Cookie header', () => {
    const id = newSessionId();
    expect(cookieValue(`a=1; __Host-aegis_console=${id}; b=2`, '__Host-aegis_console')).toBe(id);
    expect(cookieValue('__Host-aegis_console=short', '__Host-aegis_console')).toBeNull();
    expect(cookieValue(`other=${id}`, '__Host-aegis_console')).toBeNull();
    expect(cookieValue(undefined, '__Host-aegis_console')).toBeNull();
  });

  it('stores a hash, never the id, and ties the CSRF token to the session', () => {
    const a = newSessionId();
    const b = newSessionId();
    expect(a).not.toBe(b);
    expect(sessionKey(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(sessionKey(a)).not.toContain(a);
    expect(csrfValid(a, csrfTokenFor(a))).toBe(true);
    expect(csrfValid(a, csrfTokenFor(b))).toBe(false);
    expect(csrfValid(a, undefined)).toBe(false);
    expect(csrfValid(a, '')).toBe(false);
  });

  it('ends a session at its lifetime and after idling', () => {
    const t0 = 1_000_000;
    const session = { createdAt: t0, lastSeenAt: t0, expiresAt: t0 + CONSOLE_SESSION_LIFETIME_MS };
    expect(sessionState(session, t0 + 1000)).toEqual({ live: true, touch: false });
    expect(sessionState(session, t0 + 61_000)).toEqual({ live: true, touch: true });
    expect(sessionState(session, t0 + CONSOLE_SESSION_IDLE_MS)).toEqual({ live: false, reason: 'idle' });
    const busy = { ...session, lastSeenAt: t0 + CONSOLE_SESSION_LIFETIME_MS - 1 };
    expect(sessionState(busy, t0 + CONSOLE_SESSION_LIFETIME_MS)).toEqual({ live: false, reason: 'expired' });
  });

  it('treats every method but GET, HEAD and OPTIONS as a change', () => {
    expect(['GET', 'HEAD', 'OPTIONS', 'get'].map(isChange)).toEqual([false, false, false, false]);
    expect(['POST', 'PUT', 'PATCH', 'DELETE'].map(isChange)).toEqual([true, true, true, true]);
  });
});
