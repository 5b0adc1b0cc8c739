// The console's session as an admin API credential: the cookie names a live session; a change
// (any method but GET/HEAD/OPTIONS) also needs the session's CSRF token in x-csrf-token, since
// the cookie is sent by the browser on its own. The admin API registers this under 'session'.
import {
  CSRF_HEADER,
  consoleCookie,
  cookieValue,
  csrfValid,
  isChange,
} from '../../core/console/console-session';
import type { ConsoleSessionStore } from '../../infra/console/console-session.store';

export type GiteaAsPerson = (path: string) => Promise<{ status: number; body: unknown }>;

export type SessionPrincipal = {
  login: string;
  isSiteAdmin: boolean;
  via: 'session';
  gitea: GiteaAsPerson | null;
  personId: string | null;
};

export type SessionAuthOutcome =
  | { ok: true; principal: SessionPrincipal; personId: string | null }
  | { ok: false; status: 401 | 403; message: string };

export class ConsoleSessionAuthenticator {
  private readonly cookieName: string;

  constructor(
    publicUrl: string,
    private readonly sessions: ConsoleSessionStore,
    /** Gitea as the session's person (their own grant); null when the service has none for them. */
    private readonly giteaAs: (personId: string) => GiteaAsPerson | null = () => null,
  ) {
    this.cookieName = consoleCookie(publicUrl).name;
  }

  /** null: no console cookie on this request (another credential may apply). */
  async authenticate(request: {
    method: string;
    headers: Record<string, string | undefined>;
  }): Promise<SessionAuthOutcome | null> {
    const id = cookieValue(request.headers.cookie, this.cookieName);
    if (!id) return null;
    const session = await this.sessions.find(id);
    if (!session) return { ok: false, status: 401, message: 'your console session ended: sign in again' };
    if (isChange(request.method) && !csrfValid(id, request.headers[CSRF_HEADER]))
      return {
        ok: false,
        status: 403,
        message: `change refused: the ${CSRF_HEADER} header is missing or does not match your session`,
      };
    return {
      ok: true,
      personId: session.personId,
      principal: {
        login: session.login,
        isSiteAdmin: session.isSiteAdmin,
        via: 'session',
        gitea: session.personId ? this.giteaAs(session.personId) : null,
        personId: session.personId,
      },
    };
  }
}
