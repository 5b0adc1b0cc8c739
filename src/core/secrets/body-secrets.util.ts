// Layer-1 input: the secret values a caller submits in a request body (ADR 0005 amendment).
import { ACTION_SECRET_WRITE_OPERATIONS } from './secret-operations.util';

/** Request-body fields whose values are secrets (matched case-insensitively on the key). */
export const BODY_SECRET_FIELDS: ReadonlySet<string> = new Set([
  'password',
  'secret',
  'client_secret',
  'token',
  'access_token',
  'auth_password',
  'auth_token',
  'private_key',
  'authorization_header',
  'remote_password',
  'mirror_password',
  'mirror_token',
  'aws_secret_access_key',
  'aws_access_key_id',
]);

/** Values shorter than this are not collected from the named fields (Action secret data is exempt). */
export const MIN_BODY_SECRET_LENGTH = 4;

/**
 * Depth of a container: the body itself is depth 1, and every object or array nested inside a
 * container of depth d has depth d + 1. A secret field is collected when the object that holds it
 * has depth <= MAX_BODY_SECRET_DEPTH. So `{password}` is depth 1, `{a: {password}}` depth 2 and
 * `{a: [{password}]}` depth 3 (the array counts as a level).
 */
export const MAX_BODY_SECRET_DEPTH = 8;

export function isBodySecretField(key: string): boolean {
  return BODY_SECRET_FIELDS.has(key.toLowerCase());
}

export function collectBodySecrets(body: unknown, operationId: string): string[] {
  const found = new Set<string>();
  if (body === null || typeof body !== 'object') return [];
  if (ACTION_SECRET_WRITE_OPERATIONS.has(operationId) && !Array.isArray(body)) {
    const data = (body as Record<string, unknown>).data;
    // Any length, but never the empty string (that would redact everything).
    if (typeof data === 'string' && data.length > 0) found.add(data);
  }
  // Explicit stack: a hostile body must not be able to exhaust the call stack.
  const stack: Array<[unknown, number]> = [[body, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (Array.isArray(node)) {
      for (const item of node)
        if (item !== null && typeof item === 'object' && depth < MAX_BODY_SECRET_DEPTH)
          stack.push([item, depth + 1]);
      continue;
    }
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if (typeof value === 'string') {
        if (value.length >= MIN_BODY_SECRET_LENGTH && isBodySecretField(key)) found.add(value);
      } else if (value !== null && typeof value === 'object' && depth < MAX_BODY_SECRET_DEPTH) {
        stack.push([value, depth + 1]);
      }
    }
  }
  return [...found];
}
