// Maps a concrete path (as the raw tool receives it) to the catalogue operation Gitea would route
// it to, so that policy, audit and result handling are those of that operation.
import { isWildcard } from '../request/path-encoding';
import type { CatalogueOperation, HttpMethod } from './tool-catalogue';

type Part = { literal: string } | { regex: RegExp; names: string[] } | { wildcard: string };
type CompiledRoute = { op: CatalogueOperation; parts: Part[]; literals: number };

export type RouteMatch = { op: CatalogueOperation; params: Record<string, string> };

export class RouteMatcher {
  private readonly byMethod = new Map<string, CompiledRoute[]>();

  constructor(operations: CatalogueOperation[]) {
    for (const op of operations) {
      const parts = op.route
        .split('/')
        .slice(1)
        .map((segment): Part => {
          const whole = /^\{([^}]+)\}$/.exec(segment);
          if (whole?.[1] && isWildcard(op.route, whole[1])) return { wildcard: whole[1] };
          if (!segment.includes('{')) return { literal: segment };
          const names: string[] = [];
          const source = segment
            .split(/(\{[^}]+\})/)
            .map((piece) => {
              const param = /^\{([^}]+)\}$/.exec(piece);
              if (param?.[1]) {
                names.push(param[1]);
                return '([^/]+?)';
              }
              return piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
            })
            .join('');
          return { regex: new RegExp(`^${source}$`), names };
        });
      const list = this.byMethod.get(op.method) ?? [];
      list.push({ op, parts, literals: parts.filter((p) => 'literal' in p).length });
      this.byMethod.set(op.method, list);
    }
    // Prefer the most literal route, as Gitea's router does for static segments.
    for (const list of this.byMethod.values())
      list.sort((a, b) => b.literals - a.literals || a.parts.length - b.parts.length);
  }

  /** segments: the decoded path segments (already checked for "." and ".."). */
  match(method: HttpMethod, segments: string[]): RouteMatch | null {
    let best: { match: RouteMatch; score: number } | null = null;
    for (const route of this.byMethod.get(method) ?? []) {
      const params: Record<string, string> = {};
      if (matchParts(route.parts, 0, segments, 0, params)) {
        const wildcards = route.parts.filter((p) => 'wildcard' in p).length;
        // Static segments win over patterned ones ({index}.{diffType}), which win over plain parameters.
        const patterned = route.parts.filter((p) => 'regex' in p && p.regex.source !== '^([^/]+?)$').length;
        const score = route.literals * 10 + patterned * 5 - wildcards;
        if (!best || score > best.score) best = { match: { op: route.op, params: { ...params } }, score };
      }
    }
    return best?.match ?? null;
  }
}

function matchParts(
  parts: Part[],
  pi: number,
  segs: string[],
  si: number,
  params: Record<string, string>,
): boolean {
  if (pi === parts.length) return si === segs.length;
  const part = parts[pi];
  if (!part || si >= segs.length) return false;
  const seg = segs[si] as string;
  if ('literal' in part) return part.literal === seg && matchParts(parts, pi + 1, segs, si + 1, params);
  if ('regex' in part) {
    const m = part.regex.exec(seg);
    if (!m) return false;
    part.names.forEach((name, i) => (params[name] = m[i + 1] ?? ''));
    return matchParts(parts, pi + 1, segs, si + 1, params);
  }
  // Wildcard: one or more segments, shortest first so literal suffixes (status, statuses) still match.
  for (let end = si + 1; end <= segs.length; end++) {
    params[part.wildcard] = segs.slice(si, end).join('/');
    if (matchParts(parts, pi + 1, segs, end, params)) return true;
  }
  delete params[part.wildcard];
  return false;
}
