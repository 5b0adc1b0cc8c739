// Structured JSON logs through pino. Redaction is done here once, in pino's log and bindings
// formatters: any field named like a credential (Authorization and Cookie headers, token, secret,
// password, key names; compared case-insensitively) at the top level or up to three levels below
// is replaced by REDACTED. A hand-written walk instead of pino's `redact` paths: the path matcher
// with wildcards cost about 13% of the CPU of a tool call (one info line per call), the walk costs
// a Set lookup per key and copies only the objects it has to change (the caller's object is never
// mutated).
import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogConfig } from './log-config';
import { REDACTED } from '../../core/secrets/redaction-marker';

const SENSITIVE_FIELDS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'token',
  'accessToken',
  'access_token',
  'refreshToken',
  'refresh_token',
  'idToken',
  'id_token',
  'bearerToken',
  'secret',
  'clientSecret',
  'client_secret',
  'password',
  'passwd',
  'apiKey',
  'api_key',
  'encryptionKey',
  'sudo_token',
  'x-gitea-otp',
];

const SENSITIVE = new Set(SENSITIVE_FIELDS.map((field) => field.toLowerCase()));

/** Levels below the top level that are searched (the former redact paths reached `*.*.*.key`). */
const MAX_DEPTH = 3;

export { REDACTED };

function isWalkable(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  // Binary payloads and dates hold no named fields; walking a Buffer would visit every byte.
  return !ArrayBuffer.isView(value) && !(value instanceof ArrayBuffer) && !(value instanceof Date);
}

function copyOf<T extends object>(value: T): T {
  if (Array.isArray(value)) return value.slice() as T;
  // Keep the prototype and non-enumerable fields (an Error keeps message/stack for pino's serializer).
  return Object.create(
    Object.getPrototypeOf(value) as object | null,
    Object.getOwnPropertyDescriptors(value),
  ) as T;
}

/** `value` itself when nothing in it needs redaction, else a copy with the credentials replaced. */
export function redactCredentials<T>(value: T, depth = 0): T {
  if (!isWalkable(value)) return value;
  let out: Record<string, unknown> | null = null;
  for (const key of Object.keys(value)) {
    const field = value[key];
    let next = field;
    if (SENSITIVE.has(key.toLowerCase())) {
      if (field === undefined) continue;
      next = REDACTED;
    } else if (depth < MAX_DEPTH && isWalkable(field)) {
      next = redactCredentials(field, depth + 1);
    }
    if (next !== field) {
      out ??= copyOf(value);
      out[key] = next;
    }
  }
  return (out ?? value) as T;
}

export function createLogger(config: LogConfig, destination?: DestinationStream): Logger {
  const logger = pino(
    {
      level: config.level,
      base: { service: 'aegis-gitea-mcp' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        level: (label) => ({ level: label }),
        bindings: (bindings) => redactCredentials(bindings),
        log: (object) => redactCredentials(object),
      },
    },
    destination,
  );
  // pino does not run the bindings formatter for child loggers: redact their bindings here (children
  // are created from their parent's prototype, so grandchildren inherit this `child` too).
  const child = logger.child;
  logger.child = function redactedChild(this: Logger, bindings, options) {
    return child.call(this, redactCredentials(bindings), options);
  } as Logger['child'];
  return logger;
}
