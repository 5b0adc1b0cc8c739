// Child-process entry for the policy e2e tests: the whole service (src/main.ts createApp) plus a
// test-only admin authenticator that resolves a person from their own Gitea token
// ("Authorization: Bearer person.<gitea token>"), standing in for the OAuth access tokens of the
// OAuth issue until they land. Never part of the shipped service. Prints "READY <port>".
import 'reflect-metadata';
import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { FEATURE_MODULES } from '../../../../src/app.module';
import { APP_CONFIG, type AppConfig } from '../../../../src/config/app-config';
import { createApp } from '../../../../src/main';
import { GiteaHttpClient } from '../../../../src/infra/gitea/gitea-http-client';
import { giteaAsToken, type AdminAuthRegistry } from '../../../../src/modules/policy/admin-auth';
import { ADMIN_AUTH_REGISTRY } from '../../../../src/modules/policy/policy.tokens';
import { serveChild } from '../../helpers/child-entry';

@Module({})
class PersonTokenAuthModule implements OnModuleInit {
  constructor(
    @Inject(ADMIN_AUTH_REGISTRY) private readonly registry: AdminAuthRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const { url, timeoutMs } = this.config.gitea;
    const client = new GiteaHttpClient({ baseUrl: url });
    this.registry.register('test_person', {
      authenticate: async (request) => {
        const match = /^Bearer person\.(\S+)$/.exec(request.headers.authorization ?? '');
        if (!match) return null;
        const gitea = giteaAsToken(client, match[1] as string, timeoutMs);
        const me = await gitea('/user');
        if (me.status !== 200) return { ok: false, status: 401, message: 'Gitea refused that token' };
        const body = me.body as { login: string; is_admin: boolean };
        return {
          ok: true,
          principal: { login: body.login, isSiteAdmin: body.is_admin, via: 'test_person', gitea },
        };
      },
    });
  }
}

serveChild(() => {
  const config = JSON.parse(process.env.AEGIS_TEST_CONFIG ?? '') as AppConfig;
  return createApp(config, { features: [...FEATURE_MODULES, PersonTokenAuthModule] });
});
