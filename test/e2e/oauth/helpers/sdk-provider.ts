// An OAuthClientProvider for the official TypeScript SDK 2.x client, as an MCP host application
// would write one: in-memory storage, the authorization URL captured instead of opening a browser.
import type { OAuthClientProvider } from '@modelcontextprotocol/client';

type Stored = Parameters<OAuthClientProvider['saveTokens']>[0];
type Info = Parameters<NonNullable<OAuthClientProvider['saveClientInformation']>>[0];

export class TestOAuthProvider implements OAuthClientProvider {
  authorizationUrl: URL | null = null;
  private info: Info | undefined;
  private stored: Stored | undefined;
  private verifier = '';
  private lastState = '';

  constructor(
    private readonly name: string,
    private readonly redirect: string,
    readonly clientMetadataUrl?: string,
  ) {}

  get redirectUrl(): string {
    return this.redirect;
  }

  get clientMetadata() {
    return {
      client_name: this.name,
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    } as OAuthClientProvider['clientMetadata'];
  }

  state(): string {
    this.lastState = `st-${Math.random().toString(36).slice(2)}`;
    return this.lastState;
  }

  get expectedState(): string {
    return this.lastState;
  }

  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: Info): void {
    this.info = info;
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: Stored): void {
    this.stored = tokens;
  }
  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    return this.verifier;
  }
  private discovery: unknown;
  saveDiscoveryState(state: unknown): void {
    this.discovery = state;
  }
  discoveryState(): never {
    return this.discovery as never;
  }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.stored = undefined;
    if (scope === 'all' || scope === 'client') this.info = undefined;
  }
}
