// Child-process entry for the policy e2e tests: the whole service (src/main.ts createApp) plus a
// test-only admin authenticator that resolves a person from their own Gitea token
// ("Authorization: Bearer person.<gitea token>"), standing in for the OAuth access tokens of the
// OAuth issue until they land. Never part of the shipped service. Prints "READY <port>".
import 'reflect-metadata';
import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import { FEATURE_MODULES } from '../../../../src/app.module';
import { APP_CONFIG, type AppConfig } from '../../../../src/config/app-config';
import { createApp } from '../../../../src/main';
import { giteaAsToken, type AdminAuthRegistry } from '../../../../src/modules/policy/admin-auth';
import { ADMIN_AUTH_REGISTRY } from '../../../../src/modules/policy/policy.tokens';

@Module({})
class PersonTokenAuthModule implements OnModuleInit {
  constructor(
    @Inject(ADMIN_AUTH_REGISTRY) private readonly registry: AdminAuthRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const { url, timeoutMs } = this.config.gitea;
    this.registry.register('test_person', {
      authenticate: async (request) => {
        const match = /^Bearer person\.(\S+)$/.exec(request.headers.authorization ?? '');
        if (!match) return null;
        const gitea = giteaAsToken(url, match[1] as string, timeoutMs);
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

async function main(): Promise<void> {
  const config = JSON.parse(process.env.AEGIS_TEST_CONFIG ?? '') as AppConfig;
  const app = await createApp(config, { features: [...FEATURE_MODULES, PersonTokenAuthModule] });
  await app.listen(0, '127.0.0.1');
  const port = (app.getHttpServer().address() as AddressInfo).port;
  process.stdout.write(`READY ${port}\n`);
  const stop = (): void => {
    void app.close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `boot failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
