// Gitea as the console session's person, through their own Gitea grant (never the service token)
// and the one Gitea HTTP client: what the admin API's org-owner check asks. The token is sent as Bearer only (CVE-2026-28699),
// refreshed by the grant service; a 401 is reported so the grant is refreshed once and retried.
import type { GiteaGrantService } from '../../core/gitea-oauth/grant-service';
import type { GiteaHttpClient } from '../../infra/gitea/gitea-http-client';
import type { GiteaAsPerson } from './console-session.authenticator';

export function giteaAsGrant(
  grants: Pick<GiteaGrantService, 'credentialFor' | 'upstreamRefused'>,
  gitea: GiteaHttpClient,
  timeoutMs: number,
): (personId: string) => GiteaAsPerson {
  const get = async (path: string, token: string): Promise<{ status: number; body: unknown }> => {
    const response = await gitea.request(`/api/v1${path}`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      timeoutMs,
    });
    return { status: response.status, body: response.json() ?? response.text };
  };
  return (personId) => async (path) => {
    const credential = await grants.credentialFor(personId);
    const answer = await get(path, credential.token);
    if (answer.status !== 401 && answer.status !== 403) return answer;
    const message =
      typeof (answer.body as { message?: unknown } | null)?.message === 'string'
        ? (answer.body as { message: string }).message
        : '';
    const retry = await grants.upstreamRefused(personId, answer.status, message);
    return retry ? get(path, retry.token) : answer;
  };
}
