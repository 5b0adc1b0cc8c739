// The Authorization header of a request to the resource server (RFC 6750 section 2.1): none, a
// scheme other than Bearer (no credentials we know: 401 without an error code, section 3.1), a
// Bearer header that cannot carry a token (malformed: 400 invalid_request), or a token.
export type BearerHeader =
  { kind: 'none' } | { kind: 'other_scheme' } | { kind: 'malformed' } | { kind: 'token'; token: string };

const BEARER_TOKEN = /^Bearer[ ]+([\x21-\x7e]{1,4096})[ ]*$/i;

export function parseBearerHeader(authorization: string | undefined): BearerHeader {
  if (authorization === undefined || authorization.trim() === '') return { kind: 'none' };
  if (!/^Bearer(?:[ \t]|$)/i.test(authorization)) return { kind: 'other_scheme' };
  const m = BEARER_TOKEN.exec(authorization);
  return m ? { kind: 'token', token: m[1] as string } : { kind: 'malformed' };
}
