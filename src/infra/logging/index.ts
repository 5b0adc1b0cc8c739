export { createLogger, REDACTED } from './logger';
export { LoggingModule } from './logging.module';
export { PinoNestLogger } from './nest-logger';
export type { LogConfig } from './log-config';
