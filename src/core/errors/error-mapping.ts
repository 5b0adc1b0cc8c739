// Error results: {"error": {"status", "kind", "message"}}. Messages are Gitea's (or ours),
// truncated and stripped of credentials; stack traces never leave the process.
import { REDACTED } from '../secrets/redaction-marker';

export type ErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'validation_failed'
  | 'rate_limited'
  | 'concurrency_limited'
  | 'upstream_error'
  | 'timeout'
  | 'network_error'
  | 'invalid_arguments'
  | 'tool_disabled'
  | 'read_only'
  | 'repo_not_allowed'
  | 'payload_too_large'
  | 'secret_blocked'
  | 'auth_required'
  | 'masked_content_write'
  | 'internal_error';

export type ErrorBody = {
  error: { status: number | null; kind: ErrorKind; message: string; details?: unknown };
};

export const MAX_ERROR_MESSAGE_CHARS = 500;

export function kindForStatus(status: number): ErrorKind {
  if (status === 400) return 'bad_request';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404 || status === 410) return 'not_found';
  if (status === 409 || status === 423) return 'conflict';
  if (status === 413) return 'payload_too_large';
  if (status === 422) return 'validation_failed';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'upstream_error';
  if (status >= 300 && status < 400) return 'upstream_error';
  return 'bad_request';
}

/** Removes credentials (the given exact values, Authorization headers, token-like assignments) and truncates. */
export function sanitizeMessage(
  message: string,
  secrets: string[] = [],
  max = MAX_ERROR_MESSAGE_CHARS,
): string {
  let text = message;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) text = text.split(secret).join(REDACTED);
  }
  text = text
    .replace(/(authorization\s*[:=]\s*)("?)[^\s"',;]+(?:\s+[^\s"',;]+)?/gi, `$1$2${REDACTED}`)
    .replace(/\b(bearer|token|basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${REDACTED}`)
    .replace(/([?&](?:token|access_token|sudo|password)=)[^&\s"]+/gi, `$1${REDACTED}`)
    .replace(/(\/\/[^/\s:@]+:)[^@\s/]+@/g, `$1${REDACTED}@`);
  // Control characters make poor messages and can smuggle terminal escapes.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point here
  text = text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, ' ');
  if (text.length > max) text = `${text.slice(0, max)}… (truncated, ${text.length} chars)`;
  return text;
}

/** Gitea's error body is {"message", "url", "errors"?}; anything else is shown as text. */
export function giteaErrorMessage(status: number, body: Uint8Array): string {
  const text = Buffer.from(body.subarray(0, 64 * 1024)).toString('utf8');
  try {
    const json = JSON.parse(text) as { message?: unknown; errors?: unknown };
    const parts: string[] = [];
    if (typeof json.message === 'string' && json.message) parts.push(json.message);
    if (Array.isArray(json.errors) && json.errors.length)
      parts.push(json.errors.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join('; '));
    if (parts.length) return parts.join(': ');
  } catch {
    // not JSON: fall through to the raw text
  }
  return text.trim() || `Gitea answered HTTP ${status}`;
}

export function errorBody(
  kind: ErrorKind,
  status: number | null,
  message: string,
  details?: unknown,
): ErrorBody {
  const error: ErrorBody['error'] = { status, kind, message };
  if (details !== undefined) error.details = details;
  return { error };
}
