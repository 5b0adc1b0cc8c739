// A router that matches on the RAW (still percent-encoded) request path, like Gitea's chi
// router: a single-segment parameter never spans a '/', so `releases/tags/rel/1.0` does not
// resolve while `releases/tags/rel%2F1.0` does; wildcard routes (`branches/*`, `contents/*`,
// ...) take the rest of the path, slashes included. Routes come from the bundled swagger, so
// every documented operation is routable (served, or answered 501).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type SwaggerOperation = {
  operationId: string;
  tags?: string[];
  produces?: string[];
  responses: Record<string, { $ref?: string; schema?: unknown; description?: string; headers?: unknown }>;
  parameters?: Array<{ name: string; in: string; [k: string]: unknown }>;
};
export type Swagger = {
  basePath: string;
  paths: Record<string, Record<string, SwaggerOperation>>;
  definitions: Record<string, unknown>;
  responses: Record<string, { schema?: unknown; headers?: unknown; description?: string }>;
};

export const swaggerPath = join(__dirname, '..', '..', 'gitea', 'swagger.v1.json');

let cached: Swagger | undefined;
export function loadSwagger(): Swagger {
  cached ??= JSON.parse(readFileSync(swaggerPath, 'utf8')) as Swagger;
  return cached;
}

/**
 * Parameters Gitea serves through wildcard routes (`/*`), keyed by route template and
 * parameter, as in routers/api/v1/api.go. `pulls/{base}/{head}` is `{base}/*`: only head.
 */
const WILDCARDS: Record<string, string> = {
  '/repos/{owner}/{repo}/branches/{branch}': 'branch',
  '/repos/{owner}/{repo}/tags/{tag}': 'tag',
  '/repos/{owner}/{repo}/contents/{filepath}': 'filepath',
  '/repos/{owner}/{repo}/contents-ext/{filepath}': 'filepath',
  '/repos/{owner}/{repo}/raw/{filepath}': 'filepath',
  '/repos/{owner}/{repo}/media/{filepath}': 'filepath',
  '/repos/{owner}/{repo}/compare/{basehead}': 'basehead',
  '/repos/{owner}/{repo}/git/refs/{ref}': 'ref',
  '/repos/{owner}/{repo}/commits/{ref}/status': 'ref',
  '/repos/{owner}/{repo}/commits/{ref}/statuses': 'ref',
  '/repos/{owner}/{repo}/pulls/{base}/{head}': 'head',
};

export type Route = {
  template: string;
  method: string;
  operation: SwaggerOperation;
  regex: RegExp;
  names: string[];
  wildcard: string | null;
  score: number[];
};

export type RouteMatch = { route: Route; params: Record<string, string> };

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compile(template: string, method: string, operation: SwaggerOperation): Route {
  const wildcard = WILDCARDS[template] ?? null;
  const names: string[] = [];
  const score: number[] = [];
  const parts = template
    .split('/')
    .slice(1)
    .map((seg) => {
      const pieces = seg.split(/(\{[^}]+\})/).filter((p) => p !== '');
      const hasLiteral = pieces.some((p) => !p.startsWith('{'));
      const whole = pieces.length === 1 && !hasLiteral;
      score.push(!pieces.some((p) => p.startsWith('{')) ? 3 : hasLiteral ? 2 : 1);
      return pieces
        .map((p) => {
          if (!p.startsWith('{')) return escapeRe(p);
          const name = p.slice(1, -1);
          names.push(name);
          if (name === wildcard && whole) {
            score[score.length - 1] = 0;
            return '(.+)';
          }
          return whole ? '([^/]+)' : '([^/]+?)';
        })
        .join('');
    });
  return {
    template,
    method,
    operation,
    regex: new RegExp(`^/${parts.join('/')}$`),
    names,
    wildcard,
    score,
  };
}

function compareScore(a: Route, b: Route): number {
  for (let i = 0; i < Math.max(a.score.length, b.score.length); i++) {
    const d = (b.score[i] ?? -1) - (a.score[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}

export class Router {
  readonly routes: Route[] = [];

  constructor(swagger: Swagger) {
    for (const [template, ops] of Object.entries(swagger.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (method === 'parameters') continue;
        this.routes.push(compile(template, method.toUpperCase(), op));
      }
    }
    this.routes.sort(compareScore);
  }

  /**
   * Matches a raw path (relative to /api/v1). Returns the route, or 'method' when the path
   * exists for another method (Gitea answers 405 then), or null.
   */
  match(method: string, rawPath: string): RouteMatch | 'method' | null {
    let pathMatched = false;
    for (const route of this.routes) {
      const m = route.regex.exec(rawPath);
      if (!m) continue;
      const params: Record<string, string> = {};
      let ok = true;
      route.names.forEach((name, i) => {
        const value = m[i + 1] ?? '';
        try {
          params[name] = decodeURIComponent(value);
        } catch {
          ok = false;
        }
      });
      if (!ok) continue;
      if (route.method !== method && !(method === 'HEAD' && route.method === 'GET')) {
        pathMatched = true;
        continue;
      }
      return { route, params };
    }
    return pathMatched ? 'method' : null;
  }

  byOperationId(id: string): Route | undefined {
    return this.routes.find((r) => r.operation.operationId === id);
  }
}
