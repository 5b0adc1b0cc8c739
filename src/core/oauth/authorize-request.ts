// Validation of an authorization request (OAuth 2.1 section 4.1.1 with the MCP profile), in the
// order that decides where an error may go: client and redirect URI problems are shown to the
// person and never redirected (an unverified redirect URI is an open redirector); everything
// after that goes back to the client's redirect URI with `error`, `state` and `iss`.
import { pkceRequestProblem } from './pkce';
import { matchRedirectUri } from './redirect-uri';
import { parseScope } from './scopes';

export type AuthorizeQuery = Record<string, string | undefined>;

export type AuthorizeRequest = {
  clientId: string;
  redirectUri: string;
  state: string | null;
  codeChallenge: string;
  scopes: string[];
  resource: string;
};

export type AuthorizeCheck =
  | { ok: true; request: AuthorizeRequest }
  | { ok: false; redirect: false; message: string }
  | {
      ok: false;
      redirect: true;
      redirectUri: string;
      state: string | null;
      error: 'invalid_request' | 'unsupported_response_type' | 'invalid_scope' | 'invalid_target';
      description: string;
    };

/** The resource a client meant, or null when it names another server. */
export function resolveResource(requested: string | undefined, canonical: string): string | null {
  // RFC 8707: clients MUST send it, but several do not; the documented default is this server's /mcp.
  if (requested === undefined || requested === '') return canonical;
  const strip = (s: string): string => s.replace(/\/+$/, '');
  if (strip(requested) === strip(canonical)) return canonical;
  return null;
}

export function checkAuthorizeRequest(
  query: AuthorizeQuery,
  client: { redirectUris: readonly string[] } | null,
  canonicalResource: string,
): AuthorizeCheck {
  if (!query.client_id) return { ok: false, redirect: false, message: 'client_id is required' };
  if (!client) return { ok: false, redirect: false, message: 'unknown client_id' };
  if (!query.redirect_uri) return { ok: false, redirect: false, message: 'redirect_uri is required' };
  const redirectUri = matchRedirectUri(client.redirectUris, query.redirect_uri);
  if (!redirectUri)
    return { ok: false, redirect: false, message: 'redirect_uri is not registered for this client' };
  const state = query.state ?? null;
  const fail = (
    error: 'invalid_request' | 'unsupported_response_type' | 'invalid_scope' | 'invalid_target',
    description: string,
  ): AuthorizeCheck => ({ ok: false, redirect: true, redirectUri, state, error, description });
  if (query.response_type !== 'code')
    return fail('unsupported_response_type', 'response_type must be "code"');
  const pkce = pkceRequestProblem(query.code_challenge, query.code_challenge_method);
  if (pkce) return fail('invalid_request', pkce);
  const scope = parseScope(query.scope);
  if (!scope.ok) return fail('invalid_scope', `unknown scope: ${scope.unknown.join(' ').slice(0, 100)}`);
  const resource = resolveResource(query.resource, canonicalResource);
  if (!resource) return fail('invalid_target', `resource must be ${canonicalResource}`);
  return {
    ok: true,
    request: {
      clientId: query.client_id,
      redirectUri,
      state,
      codeChallenge: query.code_challenge as string,
      scopes: scope.scopes,
      resource,
    },
  };
}

/** The redirect back to the client: `iss` always (RFC 9207), `state` when the client sent one. */
export function authorizationResponseUrl(
  redirectUri: string,
  issuer: string,
  params: Record<string, string | null>,
): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params)) if (value !== null) url.searchParams.set(key, value);
  url.searchParams.set('iss', issuer);
  return url.toString();
}
