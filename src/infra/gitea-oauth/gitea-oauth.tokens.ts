// Injection tokens of the Gitea OAuth2 adapters (src/infra/gitea-oauth).
export const GITEA_OAUTH_ENDPOINT = Symbol('GITEA_OAUTH_ENDPOINT'); // HttpGiteaOAuthEndpoint: Gitea's token endpoint
export const SIGN_IN_STATES = Symbol('SIGN_IN_STATES'); // PrismaSignInStateStore: passport's sign-in states
