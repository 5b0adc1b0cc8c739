// Resolves the Gitea account behind a token (GET /api/v1/user). Used for the service account's login
// and site-admin flag; the token is sent only to the configured Gitea origin.
export type GiteaUser = { login: string; isSiteAdmin: boolean };

export type GiteaUserLookup =
  { ok: true; user: GiteaUser } | { ok: false; unauthorized: boolean; message: string };

export async function fetchGiteaUser(
  giteaUrl: string,
  token: string,
  timeoutMs: number,
): Promise<GiteaUserLookup> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(`${giteaUrl.replace(/\/+$/, '')}/api/v1/user`, {
      headers: { authorization: `token ${token}`, accept: 'application/json' },
      redirect: 'manual',
      signal: controller.signal,
    });
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      return {
        ok: false,
        unauthorized: true,
        message: `Gitea refused the service token (HTTP ${response.status})`,
      };
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      return { ok: false, unauthorized: false, message: `Gitea answered HTTP ${response.status} for /user` };
    }
    const body = (await response.json()) as { login?: unknown; is_admin?: unknown };
    if (typeof body.login !== 'string' || body.login === '') {
      return { ok: false, unauthorized: false, message: 'Gitea /user answer has no login' };
    }
    return { ok: true, user: { login: body.login, isSiteAdmin: body.is_admin === true } };
  } catch (error) {
    const aborted = error instanceof Error && error.name === 'AbortError';
    return {
      ok: false,
      unauthorized: false,
      message: aborted ? 'Gitea /user timed out' : 'Gitea is unreachable',
    };
  } finally {
    clearTimeout(timer);
  }
}
