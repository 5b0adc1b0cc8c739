// Provides LOGGER (a pino Logger). Other modules take child loggers: logger.child({ component }).
// Tests may pass their own logger (for example one writing to a buffer, or level "silent").
import { DynamicModule, Global, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { LOGGER } from './logging.tokens';
import { createLogger } from './logger';

@Global()
@Module({})
export class LoggingModule {
  static forRoot(logger?: Logger): DynamicModule {
    return {
      module: LoggingModule,
      providers: [
        logger
          ? { provide: LOGGER, useValue: logger }
          : {
              provide: LOGGER,
              inject: [APP_CONFIG],
              useFactory: (config: AppConfig) => createLogger({ level: config.server.logLevel }),
            },
      ],
      exports: [LOGGER],
    };
  }
}
