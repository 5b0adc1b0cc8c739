// Injection tokens of the OAuth adapters (src/infra/oauth).
export const OAUTH_STORE = Symbol('OAUTH_STORE'); // OAuthStore: the authorization server's state in the database
export const CIMD_FETCHER = Symbol('CIMD_FETCHER'); // CimdFetcher: client metadata documents on the clients' hosts
