// Shared set-up for the Gitea grant suites: a database target, the simulator with the service's
// OAuth2 application registered, and a GiteaGrantService wired to both (the real adapters).
import { randomBytes, randomUUID } from 'node:crypto';
import { GrantCipher } from '../../../src/core/gitea-oauth/grant-cipher';
import { GiteaGrantService, type GrantServiceOptions } from '../../../src/core/gitea-oauth/grant-service';
import type { Database } from '../../../src/infra/database/database';
import { HttpGiteaOAuthEndpoint } from '../../../src/infra/gitea-oauth/gitea-oauth.endpoint';
import {
  GiteaHttpClient,
  type GiteaHttpAnswer,
  type GiteaHttpRequest,
} from '../../../src/infra/gitea/gitea-http-client';
import { PrismaGiteaGrantRepository } from '../../../src/infra/gitea-oauth/prisma-gitea-grant.repository';
import { startGiteaSimulator, type GiteaSimulator } from '../../simulator';

export const REDIRECT_URI = 'http://127.0.0.1:9/auth/gitea/callback';
export const newKey = (): string => randomBytes(32).toString('hex');

export type GrantWorld = {
  sim: GiteaSimulator;
  clientId: string;
  clientSecret: string;
  endpoint: HttpGiteaOAuthEndpoint;
  /** Every token the simulator handed out in this run (for the no-plaintext check). */
  minted: Set<string>;
  service(options?: Partial<GrantServiceOptions> & { cipher?: GrantCipher }): GiteaGrantService;
  /** Authorizes `login` on the simulator and exchanges the code, like the sign-in callback. */
  tokensFor(
    login: string,
    scope?: string,
  ): Promise<{ accessToken: string; refreshToken: string; expiresInSeconds: number }>;
  signIn(service: GiteaGrantService, login: string, access?: 'read' | 'write'): Promise<{ personId: string }>;
  close(): Promise<void>;
};

export async function grantWorld(db: Database, key = newKey()): Promise<GrantWorld> {
  const sim = await startGiteaSimulator({ seed: 'test' });
  const app = sim.oauth.registerApp({ name: 'aegis', redirectUris: [REDIRECT_URI], confidential: true });
  const minted = new Set<string>();
  // Remembers every token Gitea issued (refreshes included), as it comes through the client.
  class RecordingGitea extends GiteaHttpClient {
    override async request(path: string, init: GiteaHttpRequest): Promise<GiteaHttpAnswer> {
      const answer = await super.request(path, init);
      if (path === '/login/oauth/access_token' && answer.status === 200) {
        const body = answer.json() as { access_token: string; refresh_token: string };
        minted.add(body.access_token);
        minted.add(body.refresh_token);
      }
      return answer;
    }
  }
  const gitea = new RecordingGitea({ baseUrl: sim.url });
  const endpoint = new HttpGiteaOAuthEndpoint({
    gitea,
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    timeoutMs: 5000,
  });
  const defaultCipher = new GrantCipher(key);
  const world: GrantWorld = {
    sim,
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    endpoint,
    minted,
    service: (options = {}) =>
      new GiteaGrantService({
        repository: new PrismaGiteaGrantRepository(db.prisma),
        endpoint,
        cipher: defaultCipher,
        now: () => Date.now() + sim.state.clockOffsetMs,
        newId: () => randomUUID(),
        reconnectUrl: 'http://127.0.0.1:9/auth/gitea/connect',
        sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 20))),
        ...options,
      }),
    async tokensFor(login, scope) {
      const code = sim.oauth.approve({ clientId: app.clientId, redirectUri: REDIRECT_URI, login, scope });
      const response = await gitea.request('/login/oauth/access_token', {
        method: 'POST',
        timeoutMs: 5000,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT_URI,
          client_id: app.clientId,
          client_secret: app.clientSecret,
        }).toString(),
      });
      const body = response.json() as {
        access_token: string;
        refresh_token: string;
        expires_in: number;
      };
      if (response.status !== 200) throw new Error(`token exchange failed: ${JSON.stringify(body)}`);
      return {
        accessToken: body.access_token,
        refreshToken: body.refresh_token,
        expiresInSeconds: body.expires_in,
      };
    },
    async signIn(service, login, access = 'write') {
      const scopes =
        access === 'write'
          ? ['write:repository', 'write:issue', 'write:user']
          : ['read:repository', 'read:user'];
      const tokens = await world.tokensFor(login, scopes.join(' '));
      const who = await endpoint.currentUser(tokens.accessToken);
      if (!who.ok) throw new Error(`currentUser failed: ${who.message}`);
      const { person } = await service.saveSignIn({ account: who.account, tokens, access, scopes });
      return { personId: person.id };
    },
    close: async () => {
      await gitea.close();
      await sim.close();
    },
  };
  return world;
}

/** Every row of the tables this feature owns, as JSON text. */
export async function dumpRows(db: Database): Promise<string> {
  const rows = await db.prisma.$queryRawUnsafe<Array<{ row: string }>>(
    `SELECT row_to_json(t)::text AS row FROM people t
     UNION ALL SELECT row_to_json(t)::text FROM gitea_grants t
     UNION ALL SELECT row_to_json(t)::text FROM gitea_signin_states t`,
  );
  return rows.map((r) => r.row).join('\n');
}
