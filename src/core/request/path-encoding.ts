// Path encoding keyed on route AND parameter. Gitea serves a few parameters through wildcard
// routes: there a "/" in the value stays a separator (each segment still escaped). Everywhere
// else "/" must travel as %2F, or Gitea would route the request elsewhere.

/** Route template (relative to /api/v1) -> the parameters Gitea routes as wildcards. */
export const WILDCARD_PARAMS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['/repos/{owner}/{repo}/branches/{branch}', new Set(['branch'])],
  ['/repos/{owner}/{repo}/tags/{tag}', new Set(['tag'])],
  ['/repos/{owner}/{repo}/contents/{filepath}', new Set(['filepath'])],
  ['/repos/{owner}/{repo}/contents-ext/{filepath}', new Set(['filepath'])],
  ['/repos/{owner}/{repo}/raw/{filepath}', new Set(['filepath'])],
  ['/repos/{owner}/{repo}/media/{filepath}', new Set(['filepath'])],
  ['/repos/{owner}/{repo}/compare/{basehead}', new Set(['basehead'])],
  ['/repos/{owner}/{repo}/git/refs/{ref}', new Set(['ref'])],
  ['/repos/{owner}/{repo}/commits/{ref}/status', new Set(['ref'])],
  ['/repos/{owner}/{repo}/commits/{ref}/statuses', new Set(['ref'])],
  // Routed as {base}/*: only head is the wildcard; a "/" in base must be %2F.
  ['/repos/{owner}/{repo}/pulls/{base}/{head}', new Set(['head'])],
]);

export function isWildcard(route: string, param: string): boolean {
  return WILDCARD_PARAMS.get(route)?.has(param) ?? false;
}

export class PathValueError extends Error {
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
    this.name = 'PathValueError';
  }
}

/** Escapes one path segment: everything except RFC 3986 unreserved characters. */
export function encodeSegment(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

export function encodePathValue(route: string, param: string, value: string): string {
  if (value.length === 0) throw new PathValueError(param, `path parameter ${param} must not be empty`);
  if (!isWildcard(route, param)) {
    if (value === '.' || value === '..')
      throw new PathValueError(param, `path parameter ${param} must not be "." or ".."`);
    return encodeSegment(value);
  }
  const segments = value.split('/');
  for (const segment of segments) {
    if (segment === '')
      throw new PathValueError(
        param,
        `path parameter ${param} must not contain empty segments (leading, trailing or double "/")`,
      );
    if (segment === '.' || segment === '..')
      throw new PathValueError(param, `path parameter ${param} must not contain "." or ".." segments`);
  }
  return segments.map(encodeSegment).join('/');
}

/** Fills a route template; values are strings or numbers from validated arguments. */
export function buildPath(route: string, values: Record<string, unknown>): string {
  return route.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value === null)
      throw new PathValueError(name, `path parameter ${name} is required`);
    return encodePathValue(route, name, String(value));
  });
}
