// Injection tokens of the Gitea side of issue 13 that only this module's neighbours need. The
// seam tokens other modules use (GITEA_SIGN_IN, GITEA_GRANT_STORE, MCP_GRANT_REVOKER) live in
// src/modules/tokens.ts with the interfaces in src/core/oauth/gitea-seam.ts.
export const GITEA_BROWSER_SIGN_IN = Symbol('GITEA_BROWSER_SIGN_IN'); // GiteaBrowserSignIn (req/res flow, console)
export const GITEA_GRANT_SERVICE = Symbol('GITEA_GRANT_SERVICE'); // core GiteaGrantService (full grant API)
export const GITEA_GRANT_CIPHER = Symbol('GITEA_GRANT_CIPHER'); // core GrantCipher (ENCRYPTION_KEY[S])
export const GITEA_GRANT_JOBS = Symbol('GITEA_GRANT_JOBS'); // GiteaGrantJobs (./gitea-grant.jobs.ts)
