// The seam between the MCP transport and "who is calling". Today one implementation maps the static
// MCP_BEARER_TOKEN to the service account; the OAuth issue adds one that maps tokens this service
// issued to a person's grant, and a composite tries them in turn. The transport only sees this type.
import type { CallIdentity } from '../../core/ports';

export type AuthFailure = {
  ok: false;
  /**
   * 400: a malformed Authorization header (RFC 6750 invalid_request); 401: no or wrong
   * credentials; 503: the credentials are right but the identity cannot be resolved now.
   */
  status: 400 | 401 | 503;
  /** RFC 6750 error code for the WWW-Authenticate challenge (400 and 401). */
  error: 'invalid_request' | 'invalid_token' | null;
  message: string;
};

export type AuthResult = { ok: true; identity: CallIdentity } | AuthFailure;

export interface IdentityResolver {
  /** Authenticates one HTTP request from its Authorization header (never from a session id). */
  authenticate(authorization: string | undefined): Promise<AuthResult>;
  /** Gitea answered 401 for a call made as `identity`: re-check it (e.g. the service token was rotated). */
  upstreamUnauthorized(identity: CallIdentity): void;
  /** The WWW-Authenticate challenge for a 401; carries resource_metadata once OAuth exists. */
  challenge(failure: AuthFailure): string;
  /**
   * A call of `identity` was refused 403 insufficient_scope (a step-up challenge), recorded under
   * `refusalEventId`: an OAuth resolver keeps it so that the elevated grant's audit event can name
   * it (the correlation id, checklist B12).
   */
  stepUpRequested?(identity: CallIdentity, refusalEventId: string | null): void;
}

export const IDENTITY_RESOLVER = Symbol('IDENTITY_RESOLVER');
