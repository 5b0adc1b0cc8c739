// The scopes this authorization server issues and what each means on Gitea. Two levels, where
// write includes read (the hierarchy the MCP specification asks servers to account for):
// gitea:read lets a client call read-only tools, gitea:write every tool. Each maps to Gitea's
// granular OAuth scopes, requested explicitly because a Gitea grant without access scopes gets "all".

export const SCOPE_READ = 'gitea:read';
export const SCOPE_WRITE = 'gitea:write';
export const SUPPORTED_SCOPES = [SCOPE_READ, SCOPE_WRITE] as const;
/** Granted when a client asks for no scope: the least that lets it do anything. */
export const DEFAULT_SCOPE = SCOPE_READ;

const GITEA_AREAS = [
  'activitypub',
  'issue',
  'misc',
  'notification',
  'organization',
  'package',
  'repository',
  'user',
];

export type ScopeParse = { ok: true; scopes: string[] } | { ok: false; unknown: string[] };

/** Parses a space-separated scope string into the normalised set (write implies read). */
export function parseScope(raw: unknown): ScopeParse {
  const requested = typeof raw === 'string' && raw.trim() !== '' ? raw.trim().split(/\s+/) : [DEFAULT_SCOPE];
  const unknown = requested.filter((s) => !(SUPPORTED_SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) return { ok: false, unknown };
  return { ok: true, scopes: normaliseScopes(requested) };
}

export function normaliseScopes(scopes: readonly string[]): string[] {
  const set = new Set(scopes.filter((s) => (SUPPORTED_SCOPES as readonly string[]).includes(s)));
  if (set.has(SCOPE_WRITE)) set.add(SCOPE_READ);
  return SUPPORTED_SCOPES.filter((s) => set.has(s));
}

export function canWrite(scopes: readonly string[]): boolean {
  return scopes.includes(SCOPE_WRITE);
}

/** True when `granted` covers everything in `wanted`. */
export function scopesCover(granted: readonly string[], wanted: readonly string[]): boolean {
  const have = new Set(normaliseScopes(granted));
  return normaliseScopes(wanted).every((s) => have.has(s));
}

/** Gitea granular scopes for an MCP scope set (write:X implies read:X on Gitea). */
export function giteaScopesFor(scopes: readonly string[]): string[] {
  const level = canWrite(scopes) ? 'write' : 'read';
  return GITEA_AREAS.map((area) => `${level}:${area}`);
}

export type ToolAccess = 'read' | 'write';

/** Every scope an operation of the given access needs, for one challenge naming them all. */
export function scopesForAccess(access: ToolAccess): string[] {
  return access === 'write' ? [SCOPE_READ, SCOPE_WRITE] : [SCOPE_READ];
}
