// Structured JSON logs through pino. Redaction is configured here once: Authorization and
// Cookie headers (request and response), and any field whose name says token, secret,
// password or key, at any of the first few nesting levels.
import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogConfig } from './log-config';

const SENSITIVE_FIELDS = [
  'authorization',
  'Authorization',
  'cookie',
  'Cookie',
  'set-cookie',
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

function redactPaths(): string[] {
  const paths = new Set<string>();
  for (const field of SENSITIVE_FIELDS) {
    const key = /^[A-Za-z_$][\w$]*$/.test(field) ? field : `["${field}"]`;
    const join = (prefix: string) => (key.startsWith('[') ? `${prefix}${key}` : `${prefix}.${key}`);
    paths.add(key.startsWith('[') ? key.slice(2, -2) : key);
    for (const prefix of ['*', '*.*', '*.*.*']) paths.add(join(prefix));
  }
  for (const headers of ['req.headers', 'res.headers', 'request.headers', 'response.headers', 'headers']) {
    for (const name of ['authorization', 'cookie', 'set-cookie', 'proxy-authorization', 'x-api-key']) {
      paths.add(`${headers}["${name}"]`);
    }
  }
  // pino wants plain identifiers at the top level; drop top-level names with dashes.
  return [...paths].filter((path) => !/^[^.[]*-/.test(path));
}

export const REDACTED = '[REDACTED]';

export function createLogger(config: LogConfig, destination?: DestinationStream): Logger {
  return pino(
    {
      level: config.level,
      base: { service: 'aegis-gitea-mcp' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: redactPaths(), censor: REDACTED },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}
