// Who is signed in, from the service's session endpoint (never a token: the cookie is httpOnly).
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { api, setCsrfToken } from './api/client';

export type Session = {
  login: string;
  isSiteAdmin: boolean;
  /** Organisations the person may govern (GET /api/admin/orgs, from Gitea's Owners teams). */
  ownedOrgs: string[];
  csrfToken: string;
  expiresAt: string;
};

export type Role = 'site_admin' | 'org_owner' | 'person';

export function roleOf(session: Session): Role {
  if (session.isSiteAdmin) return 'site_admin';
  return session.ownedOrgs.length > 0 ? 'org_owner' : 'person';
}

type SessionState =
  | { state: 'loading' }
  | { state: 'signed_out'; reason?: string }
  | { state: 'error'; message: string }
  | { state: 'signed_in'; session: Session };

const Ctx = createContext<{ current: SessionState; reload: () => void; signOut: () => Promise<void> }>({
  current: { state: 'loading' },
  reload: () => undefined,
  signOut: async () => undefined,
});

export function SessionProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<SessionState>({ state: 'loading' });
  const load = useCallback(async () => {
    try {
      const response = await fetch('/admin/auth/session', { credentials: 'same-origin' });
      if (response.status === 401) {
        setCsrfToken(null);
        setCurrent({ state: 'signed_out' });
        return;
      }
      if (!response.ok) throw new Error(`the service answered ${response.status}`);
      const session = (await response.json()) as Omit<Session, 'ownedOrgs'>;
      setCsrfToken(session.csrfToken);
      let ownedOrgs: string[] = [];
      if (!session.isSiteAdmin) {
        // The admin API says which orgs this person governs; a refusal means none.
        const orgs = await api.GET('/api/admin/orgs').catch(() => null);
        ownedOrgs = orgs?.data?.orgs.map((o) => o.org) ?? [];
      }
      setCurrent({ state: 'signed_in', session: { ...session, ownedOrgs } });
    } catch (error) {
      setCurrent({ state: 'error', message: error instanceof Error ? error.message : String(error) });
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  const signOut = useCallback(async () => {
    if (current.state !== 'signed_in') return;
    await fetch('/admin/auth/sign-out', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'x-csrf-token': current.session.csrfToken },
    });
    setCsrfToken(null);
    setCurrent({ state: 'signed_out', reason: 'You are signed out.' });
  }, [current]);
  return <Ctx.Provider value={{ current, reload: () => void load(), signOut }}>{children}</Ctx.Provider>;
}

export const useSession = () => useContext(Ctx);
