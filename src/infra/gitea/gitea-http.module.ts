// Provides GITEA_HTTP: the one HTTP client to Gitea, made from GITEA_URL, closed at shutdown.
// Global, and imported by the modules that call Gitea too, so a module composed on its own (tests)
// still finds it; Nest makes one instance either way.
import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { GiteaHttpClient } from './gitea-http-client';
import { GITEA_HTTP } from './gitea.tokens';

@Global()
@Module({
  providers: [
    {
      provide: GITEA_HTTP,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new GiteaHttpClient({ baseUrl: config.gitea.url }),
    },
  ],
  exports: [GITEA_HTTP],
})
export class GiteaHttpModule implements OnApplicationShutdown {
  constructor(@Inject(GITEA_HTTP) private readonly client: GiteaHttpClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }
}
