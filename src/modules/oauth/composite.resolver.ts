// /mcp accepts this server's OAuth access tokens and, when AUTH_MODES includes "token", the static
// MCP_BEARER_TOKEN. The token's prefix decides which resolver judges it; the challenge of a 401
// always points at the protected resource metadata so that OAuth clients can discover the server.
import type { CallIdentity } from '../../core/ports';
import type { AuthFailure, AuthResult, IdentityResolver } from '../auth/identity-resolver';
import { OAuthIdentityResolver } from './oauth-identity.resolver';

export class CompositeIdentityResolver implements IdentityResolver {
  constructor(
    private readonly oauth: OAuthIdentityResolver,
    private readonly serviceToken: IdentityResolver | null,
  ) {}

  authenticate(authorization: string | undefined): Promise<AuthResult> {
    if (OAuthIdentityResolver.claims(authorization) || !this.serviceToken)
      return this.oauth.authenticate(authorization);
    return this.serviceToken.authenticate(authorization);
  }

  upstreamUnauthorized(identity: CallIdentity): void {
    if (identity.mode === 'oauth') this.oauth.upstreamUnauthorized(identity);
    else this.serviceToken?.upstreamUnauthorized(identity);
  }

  stepUpRequested(identity: CallIdentity, refusalEventId: string | null): void {
    if (identity.mode === 'oauth') this.oauth.stepUpRequested(identity, refusalEventId);
  }

  challenge(failure: AuthFailure): string {
    return this.oauth.challenge(failure);
  }

  insufficientScope(access: 'read' | 'write'): string {
    return this.oauth.insufficientScope(access);
  }
}
