export const AUTHORIZATION_SERVER = Symbol('AUTHORIZATION_SERVER');
export const OAUTH_STORE = Symbol('OAUTH_STORE');
export const CIMD_FETCHER = Symbol('CIMD_FETCHER');
