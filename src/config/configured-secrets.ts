// The one list of configured values that must never appear in a result, an error, an audit record
// or a log line: the executor's exact redaction and the audit's last line of defence both use it.
// Every variable marked sensitive in env.schema.ts contributes (a URL its password).
import type { AppConfig } from './app-config';

function urlPassword(url: string | null): string | null {
  if (!url) return null;
  try {
    const password = new URL(url).password;
    return password ? decodeURIComponent(password) : null;
  } catch {
    return null;
  }
}

export function configuredSecrets(config: AppConfig): string[] {
  return [
    config.gitea.token,
    config.mcp.bearerToken,
    config.gitea.oauthClientSecret,
    config.secrets.encryptionKey,
    ...config.secrets.previousEncryptionKeys,
    config.server.metricsToken,
    config.admin.token,
    urlPassword(config.storage.databaseUrl),
    urlPassword(config.storage.redisUrl),
  ].filter((value): value is string => typeof value === 'string' && value.length > 0);
}
