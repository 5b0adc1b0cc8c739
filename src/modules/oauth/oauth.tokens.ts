// Injection tokens of the OAuth module; its adapters' tokens (OAUTH_STORE, CIMD_FETCHER) live in src/infra/oauth.
export const AUTHORIZATION_SERVER = Symbol('AUTHORIZATION_SERVER'); // AuthorizationServer (./authorization-server.ts)
