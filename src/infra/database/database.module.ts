// Provides the connected, migrated PrismaClient (token PRISMA) and the Database handle (token
// DATABASE: health checks, shutdown). Migrations run before anything can use the client.
import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { LOGGER } from '../logging/logging.tokens';
import { PRISMA } from './database.tokens';
import { openDatabase, type Database } from './database';

export const DATABASE = Symbol('DATABASE');

@Global()
@Module({
  providers: [
    {
      provide: DATABASE,
      inject: [APP_CONFIG, LOGGER],
      useFactory: async (config: AppConfig, logger: Logger): Promise<Database> => {
        const database = await openDatabase({
          databaseUrl: config.storage.databaseUrl,
          dataDir: config.storage.dataDir,
        });
        try {
          const result = await database.migrate({
            log: (message) => logger.info({ component: 'migrator' }, message),
          });
          logger.info(
            { component: 'database', kind: database.kind, applied: result.applied.length },
            'database ready',
          );
        } catch (error) {
          await database.close();
          throw error;
        }
        return database;
      },
    },
    { provide: PRISMA, inject: [DATABASE], useFactory: (database: Database) => database.prisma },
  ],
  exports: [DATABASE, PRISMA],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  async onApplicationShutdown(): Promise<void> {
    await this.database.close();
  }
}
