// Which Gitea scopes the service asks for. Gitea (1.23+) gives a grant without any granular scope
// full access ("all"), so the service always names the scopes it wants: read:* for "read", the
// same categories as write:* (write implies read on Gitea) for "write". Admin scopes only when the
// operator opted in; activitypub is never needed by the REST tools.
export type GiteaAccess = 'read' | 'write';

/** Gitea's scope categories (models/auth/access_token_scope.go). */
export const GITEA_SCOPE_CATEGORIES = [
  'activitypub',
  'admin',
  'misc',
  'notification',
  'organization',
  'package',
  'issue',
  'repository',
  'user',
] as const;
export type GiteaScopeCategory = (typeof GITEA_SCOPE_CATEGORIES)[number];

const REQUESTED: readonly GiteaScopeCategory[] = [
  'issue',
  'misc',
  'notification',
  'organization',
  'package',
  'repository',
  'user',
];

export type GiteaScopeOptions = { includeAdmin?: boolean };

/** The explicit granular scopes for an access level, in a stable order. */
export function giteaScopesFor(access: GiteaAccess, options: GiteaScopeOptions = {}): string[] {
  const categories = options.includeAdmin ? ['admin', ...REQUESTED] : [...REQUESTED];
  return categories.map((category) => `${access}:${category}`);
}

/** The wider of two access levels. */
export function widerAccess(a: GiteaAccess, b: GiteaAccess | null | undefined): GiteaAccess {
  return a === 'write' || b === 'write' ? 'write' : 'read';
}
