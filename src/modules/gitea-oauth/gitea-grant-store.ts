// GITEA_GRANT_STORE for the MCP authorization server: the grant service keyed by Gitea grant id.
import type { GiteaGrantService } from '../../core/gitea-oauth/grant-service';
import type { GiteaGrantStore } from '../../core/oauth/gitea-seam';

const isAuthRequired = (error: unknown): boolean => (error as { kind?: string }).kind === 'auth_required';

export class GiteaGrantStoreAdapter implements GiteaGrantStore {
  constructor(private readonly grants: GiteaGrantService) {}

  async accessToken(giteaGrantId: string): Promise<{ token: string; login: string; isSiteAdmin: boolean }> {
    const credential = await this.grants.credentialForGrant(giteaGrantId);
    return { token: credential.token, login: credential.login, isSiteAdmin: credential.isSiteAdmin };
  }

  // The token is not needed: the grant holds the current one.
  async upstreamUnauthorized(giteaGrantId: string, _token?: string): Promise<void> {
    // auth_required is the expected outcome of a dead grant; the next call reports it.
    await this.grants.upstreamRefusedForGrant(giteaGrantId, 401).catch((error: unknown) => {
      if (!isAuthRequired(error)) throw error;
    });
  }

  async upstreamRefused(giteaGrantId: string, status: number, giteaMessage: string): Promise<void> {
    await this.grants.upstreamRefusedForGrant(giteaGrantId, status, giteaMessage).catch((error: unknown) => {
      if (!isAuthRequired(error)) throw error;
    });
  }
}
