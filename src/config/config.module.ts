// Nest glue for configuration: @nestjs/config validates the real environment at boot (its
// validate hook throws ConfigValidationError listing every bad variable) and APP_CONFIG carries
// the typed result. Tests and the demo pass a ready AppConfig instead of touching process.env.
import { DynamicModule, Global, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_CONFIG, type AppConfig } from './app-config';
import { loadConfig, type Env } from './env.schema';

@Global()
@Module({})
export class AppConfigModule {
  static forRoot(config?: AppConfig): DynamicModule {
    if (config) {
      return {
        module: AppConfigModule,
        providers: [{ provide: APP_CONFIG, useValue: config }],
        exports: [APP_CONFIG],
      };
    }
    let parsed: AppConfig | undefined;
    return {
      module: AppConfigModule,
      imports: [
        ConfigModule.forRoot({
          ignoreEnvFile: true,
          validate: (env: Env) => {
            parsed = loadConfig(env);
            // Hand the raw strings back unchanged; the typed shape travels through APP_CONFIG.
            return env;
          },
        }),
      ],
      providers: [{ provide: APP_CONFIG, useFactory: () => parsed ?? loadConfig(process.env) }],
      exports: [APP_CONFIG],
    };
  }
}
