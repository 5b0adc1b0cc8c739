// Resolves the Gitea account behind a token (GET /api/v1/user). Used for the service account's login
// and site-admin flag; the token goes through the one Gitea HTTP client, so only to GITEA_URL.
import { GiteaHttpError, type GiteaHttpClient } from '../../infra/gitea/gitea-http-client';

export type GiteaUser = { login: string; isSiteAdmin: boolean };

export type GiteaUserLookup =
  { ok: true; user: GiteaUser } | { ok: false; unauthorized: boolean; message: string };

export async function fetchGiteaUser(
  gitea: GiteaHttpClient,
  token: string,
  timeoutMs: number,
): Promise<GiteaUserLookup> {
  try {
    const response = await gitea.request('/api/v1/user', {
      headers: { authorization: `token ${token}`, accept: 'application/json' },
      timeoutMs,
    });
    if (response.status === 401 || response.status === 403) {
      return {
        ok: false,
        unauthorized: true,
        message: `Gitea refused the service token (HTTP ${response.status})`,
      };
    }
    if (response.status !== 200)
      return { ok: false, unauthorized: false, message: `Gitea answered HTTP ${response.status} for /user` };
    const body = response.json() as { login?: unknown; is_admin?: unknown } | null;
    if (typeof body?.login !== 'string' || body.login === '') {
      return { ok: false, unauthorized: false, message: 'Gitea /user answer has no login' };
    }
    return { ok: true, user: { login: body.login, isSiteAdmin: body.is_admin === true } };
  } catch (error) {
    const timedOut = error instanceof GiteaHttpError && error.kind === 'timeout';
    return {
      ok: false,
      unauthorized: false,
      message: timedOut ? 'Gitea /user timed out' : 'Gitea is unreachable',
    };
  }
}
