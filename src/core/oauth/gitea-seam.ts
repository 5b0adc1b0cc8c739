// The seam between the service's own MCP authorization server (issue 13, `oauth-as`) and the
// Gitea side (`oauth-gitea`): sign-in through Gitea keyed by the authorization server's own
// state, the person's encrypted Gitea grant, and the revoker the lifecycle job calls. Agreed in
// /work/notes/seams.md; implemented in src/modules/gitea-oauth (GITEA_SIGN_IN, GITEA_GRANT_STORE)
// and by the authorization server (MCP_GRANT_REVOKER).
export { GiteaAuthRequiredError } from '../gitea-oauth/errors';

export type SignedInPerson = {
  personId: string;
  giteaUserId: number;
  login: string;
  isSiteAdmin: boolean;
  giteaGrantId: string;
};

export interface GiteaSignIn {
  /**
   * Where to send the browser (Gitea's authorize URL). `state` belongs to the caller (random,
   * single-use, ten minutes; verified by the caller before finish). The PKCE verifier is kept
   * here, keyed by that state. `scopes` are the Gitea granular scopes (giteaScopesFor()).
   * `redirectUri` must be one of the Gitea application's redirect URIs.
   */
  start(input: { state: string; scopes: string[]; redirectUri: string }): Promise<{ url: string }>;
  /**
   * Code exchange at Gitea (PKCE), /api/v1/user lookup, upsert of the person and their encrypted
   * Gitea grant. Throws on any failure (state unknown or spent, Gitea refusal).
   */
  finish(input: { state: string; code: string; redirectUri: string }): Promise<SignedInPerson>;
}

export interface GiteaGrantStore {
  /** A usable Gitea access token for that grant (refreshed ahead of expiry), or throws GiteaAuthRequiredError. */
  accessToken(giteaGrantId: string): Promise<{ token: string; login: string; isSiteAdmin: boolean }>;
  /** Gitea answered 401 to a call made with `token`: refresh now; if that fails the grant is dead. */
  upstreamUnauthorized(giteaGrantId: string, token: string): Promise<void>;
  /**
   * Gitea answered 401 or 403 to a call made with this grant's token; pass Gitea's message. A 403
   * saying the account may not sign in (suspended, deactivated) revokes the grant at once; a 401
   * is upstreamUnauthorized; any other 403 (missing permission or scope) changes nothing.
   */
  upstreamRefused(giteaGrantId: string, status: number, giteaMessage: string): Promise<void>;
}

/** Implemented by the authorization server; the Gitea lifecycle calls it when a person loses access. */
export interface McpGrantRevoker {
  revokePerson(personId: string, reason: string): Promise<number>;
  revokeGiteaGrant(giteaGrantId: string, reason: string): Promise<number>;
}
