// Provides REDIS_CONNECTIONS: the one factory of Redis clients when REDIS_URL is set, null
// otherwise (each user then keeps its state in memory). Its clients are ended at shutdown, after
// their users closed theirs (the queue in beforeApplicationShutdown, the others in onModuleDestroy).
import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { RedisConnections } from './redis-connections';
import { REDIS_CONNECTIONS } from './redis.tokens';

@Global()
@Module({
  providers: [
    {
      provide: REDIS_CONNECTIONS,
      inject: [APP_CONFIG],
      // ioredis is loaded only when Redis is configured (start-up CPU of the embedded default).
      useFactory: async (config: AppConfig): Promise<RedisConnections | null> => {
        if (!config.storage.redisUrl) return null;
        const { RedisConnections } = await import('./redis-connections');
        return new RedisConnections(config.storage.redisUrl);
      },
    },
  ],
  exports: [REDIS_CONNECTIONS],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS_CONNECTIONS) private readonly connections: RedisConnections | null) {}

  async onApplicationShutdown(): Promise<void> {
    await this.connections?.close();
  }
}
