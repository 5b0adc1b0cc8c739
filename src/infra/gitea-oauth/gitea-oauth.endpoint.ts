// Gitea's OAuth2 token endpoint (refresh) and GET /api/v1/user with a person's token. The
// service is a confidential client: its credentials go in HTTP Basic (client_secret_basic);
// person tokens are only ever sent as `Authorization: Bearer` (never `token`, never Basic:
// CVE-2026-28699 let a Basic-sent OAuth token bypass its scopes on Gitea before 1.26.2). Both go
// through the one Gitea HTTP client (to GITEA_URL only, no redirect followed).
import { GiteaHttpError, type GiteaHttpAnswer, type GiteaHttpClient } from '../gitea/gitea-http-client';
import type {
  AccountOutcome,
  GiteaOAuthEndpoint,
  RefreshOutcome,
} from '../../core/gitea-oauth/grant-service';

export type GiteaOAuthEndpointOptions = {
  gitea: GiteaHttpClient;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
};

// RFC 6749 5.2 errors that mean "this refresh token will never work again".
const PERMANENT = new Set(['invalid_grant', 'unauthorized_client', 'invalid_client', 'access_denied']);

export class HttpGiteaOAuthEndpoint implements GiteaOAuthEndpoint {
  constructor(private readonly options: GiteaOAuthEndpointOptions) {}

  get tokenUrl(): string {
    return this.options.gitea.url('/login/oauth/access_token');
  }

  get authorizeUrl(): string {
    return this.options.gitea.url('/login/oauth/authorize');
  }

  async refresh(refreshToken: string): Promise<RefreshOutcome> {
    const basic = Buffer.from(
      `${encodeURIComponent(this.options.clientId)}:${encodeURIComponent(this.options.clientSecret)}`,
    ).toString('base64');
    let response: GiteaHttpAnswer;
    try {
      response = await this.options.gitea.request('/login/oauth/access_token', {
        method: 'POST',
        headers: {
          authorization: `Basic ${basic}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
        timeoutMs: this.options.timeoutMs,
      });
    } catch (error) {
      return { ok: false, permanent: false, message: describe(error) };
    }
    const body = response.json() as Record<string, unknown> | null;
    if (response.status === 200 && body && typeof body.access_token === 'string') {
      if (typeof body.refresh_token !== 'string')
        return { ok: false, permanent: false, message: 'Gitea answered without a refresh_token' };
      return {
        ok: true,
        tokens: {
          accessToken: body.access_token,
          refreshToken: body.refresh_token,
          expiresInSeconds:
            typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 3600,
        },
      };
    }
    const code = body && typeof body.error === 'string' ? body.error : '';
    const permanent = (response.status === 400 || response.status === 401) && (PERMANENT.has(code) || !code);
    return {
      ok: false,
      permanent,
      message: `HTTP ${response.status}${code ? ` ${code}` : ''}`,
    };
  }

  /**
   * The sign-in's code exchange (authorization_code with PKCE), for passport-oauth2 instead of its
   * own HTTP client: the same form it would post (client credentials in the body), through the
   * one Gitea client. Gitea's answer is handed back as it came (passport reads it).
   */
  async exchangeCode(
    code: string,
    params: Record<string, string>,
  ): Promise<{ status: number; text: string }> {
    const form = new URLSearchParams({
      ...params,
      code,
      client_id: this.options.clientId,
      client_secret: this.options.clientSecret,
    });
    const answer = await this.options.gitea.request('/login/oauth/access_token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      timeoutMs: this.options.timeoutMs,
    });
    return { status: answer.status, text: answer.text };
  }

  async currentUser(accessToken: string): Promise<AccountOutcome> {
    let response: GiteaHttpAnswer;
    try {
      response = await this.options.gitea.request('/api/v1/user', {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
        timeoutMs: this.options.timeoutMs,
      });
    } catch (error) {
      return { ok: false, status: null, message: describe(error) };
    }
    const body = response.json() as Record<string, unknown> | null;
    if (response.status !== 200 || !body) {
      const message = body && typeof body.message === 'string' ? body.message : `HTTP ${response.status}`;
      return { ok: false, status: response.status, message };
    }
    if (typeof body.id !== 'number' || typeof body.login !== 'string')
      return { ok: false, status: null, message: 'Gitea /user answer has no id or login' };
    return { ok: true, account: { id: body.id, login: body.login, isSiteAdmin: body.is_admin === true } };
  }
}

function describe(error: unknown): string {
  if (error instanceof GiteaHttpError && error.kind === 'timeout') return 'Gitea did not answer in time';
  return 'Gitea is unreachable';
}
