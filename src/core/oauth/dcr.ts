// Dynamic client registration (RFC 7591), kept for clients that predate metadata documents (the
// MCP specification marks it deprecated). Public clients (token_endpoint_auth_method "none", also
// when the field is omitted: MCP clients are public as a rule) and confidential ones
// ("client_secret_basic", "client_secret_post", which get a secret once, at registration);
// application_type "native" (loopback redirects) or "web" (https redirects).
import { type ClientAuthMethod, CLIENT_AUTH_METHODS, isClientAuthMethod } from './client-auth';
import { isLoopbackUri, redirectUriProblem } from './redirect-uri';

export type Registration = {
  clientName: string;
  redirectUris: string[];
  applicationType: 'native' | 'web';
  tokenEndpointAuthMethod: ClientAuthMethod;
};

export type RegistrationCheck =
  | { ok: true; registration: Registration }
  | { ok: false; error: 'invalid_redirect_uri' | 'invalid_client_metadata'; message: string };

export function validateRegistration(body: unknown): RegistrationCheck {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return { ok: false, error: 'invalid_client_metadata', message: 'the body must be a JSON object' };
  const b = body as Record<string, unknown>;
  const uris = b.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > 10)
    return {
      ok: false,
      error: 'invalid_redirect_uri',
      message: 'redirect_uris: one to ten URIs are required',
    };
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem)
      return { ok: false, error: 'invalid_redirect_uri', message: `${String(uri).slice(0, 100)} ${problem}` };
  }
  const type = b.application_type ?? 'web';
  if (type !== 'native' && type !== 'web')
    return {
      ok: false,
      error: 'invalid_client_metadata',
      message: 'application_type must be "native" or "web"',
    };
  const parsed = (uris as string[]).map((u) => new URL(u));
  if (type === 'web' && parsed.some((u) => isLoopbackUri(u)))
    return {
      ok: false,
      error: 'invalid_redirect_uri',
      message: 'a "web" client must use https redirect URIs; loopback ones need application_type "native"',
    };
  const grants = b.grant_types;
  if (
    grants !== undefined &&
    (!Array.isArray(grants) || grants.some((g) => g !== 'authorization_code' && g !== 'refresh_token'))
  )
    return {
      ok: false,
      error: 'invalid_client_metadata',
      message: 'grant_types may contain only authorization_code and refresh_token',
    };
  const responses = b.response_types;
  if (responses !== undefined && (!Array.isArray(responses) || responses.some((r) => r !== 'code')))
    return { ok: false, error: 'invalid_client_metadata', message: 'response_types may contain only "code"' };
  const method = b.token_endpoint_auth_method ?? 'none';
  if (!isClientAuthMethod(method))
    return {
      ok: false,
      error: 'invalid_client_metadata',
      message: `token_endpoint_auth_method must be one of ${CLIENT_AUTH_METHODS.join(', ')}`,
    };
  const name =
    typeof b.client_name === 'string' && b.client_name.trim() !== ''
      ? b.client_name.trim().slice(0, 200)
      : 'Unnamed client';
  return {
    ok: true,
    registration: {
      clientName: name,
      redirectUris: uris as string[],
      applicationType: type,
      tokenEndpointAuthMethod: method,
    },
  };
}
