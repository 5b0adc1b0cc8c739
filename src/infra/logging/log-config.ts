import type { LogLevel } from '../../config/app-config';

export type LogConfig = { level: LogLevel };
