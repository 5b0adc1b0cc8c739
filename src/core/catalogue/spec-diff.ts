// What a live Gitea description (SPEC_SOURCE=live) changes against the bundled one the rules and
// tests were written for: operations added, removed, and changed (renamed, moved to another
// method or route, parameters added, removed, renamed or retyped, body changed). Operations are
// paired the way policy rules find them (call-policy.ts): by method and route with parameter names
// blanked first, then by operationId for one that moved. Both documents as parseSpec returns them
// (parameter $refs resolved, path-level parameters merged into each operation).
import { routeKey } from '../policy/call-policy';
import { HTTP_METHODS, type SwaggerParameter, type SwaggerSpec } from './swagger-types';

export type SpecOperationRef = { name: string; method: string; route: string };

export type SpecChange = {
  what: 'name' | 'method' | 'route' | 'parameter' | 'body';
  /** As the bundled description has it; null when the live one adds it. */
  from: string | null;
  /** As the live description has it; null when the live one drops it. */
  to: string | null;
};

export type SpecChangedOperation = SpecOperationRef & {
  /** The same operation in the bundled description. */
  reference: SpecOperationRef;
  changes: SpecChange[];
};

export type SpecDiff = {
  referenceVersion: string;
  liveVersion: string;
  /** In the live description only. */
  added: SpecOperationRef[];
  /** In the bundled description only. */
  removed: SpecOperationRef[];
  changed: SpecChangedOperation[];
};

/**
 * What the service learned about the description it built its catalogue from, for the admin
 * API's catalogue: where it came from and, with SPEC_SOURCE=live, how it differs from the bundled
 * one. Filled once when the tool service is built.
 */
export type SpecReport = {
  /** Where the description in use came from (SPEC_SOURCE=live falls back to the bundled one). */
  loaded: 'bundled' | 'live' | 'file';
  /** The live description against the bundled one; null unless the live one is in use. */
  differences: SpecDiff | null;
};

export type SpecReportHolder = { current: SpecReport | null };

type Op = SpecOperationRef & { params: SwaggerParameter[] };

function operationsOf(spec: Pick<SwaggerSpec, 'paths'>): Op[] {
  const out: Op[] = [];
  for (const [route, item] of Object.entries(spec.paths ?? {}))
    for (const lower of HTTP_METHODS) {
      const op = item?.[lower];
      if (!op || typeof op.operationId !== 'string') continue;
      out.push({ name: op.operationId, method: lower.toUpperCase(), route, params: op.parameters ?? [] });
    }
  return out;
}

const ref = (op: Op): SpecOperationRef => ({ name: op.name, method: op.method, route: op.route });
const byName = (a: SpecOperationRef, b: SpecOperationRef) => a.name.localeCompare(b.name);

/** The parameters of the route template, in order ("/repos/{owner}/{repo}" → owner, repo). */
function routeParams(route: string): string[] {
  return [...route.matchAll(/\{([^}]*)\}/g)].map((m) => m[1] as string);
}

function schemaName(schema: unknown): string {
  if (!schema || typeof schema !== 'object') return 'any';
  const s = schema as { $ref?: unknown; type?: unknown; items?: unknown };
  if (typeof s.$ref === 'string') return s.$ref.split('/').pop() ?? s.$ref;
  if (s.type === 'array') return `${schemaName(s.items)}[]`;
  return typeof s.type === 'string' ? s.type : 'object';
}

/** A parameter as the console shows it: "query limit: integer, optional". */
function describeParam(p: SwaggerParameter): string {
  const type =
    p.in === 'body'
      ? schemaName(p.schema)
      : p.type === 'array'
        ? `${schemaName(p.items)}[]${p.collectionFormat ? ` (${p.collectionFormat})` : ''}`
        : `${p.type ?? 'any'}${p.format ? ` (${p.format})` : ''}`;
  const values = Array.isArray(p.enum) && p.enum.length ? ` one of ${p.enum.map(String).join('|')}` : '';
  const required = p.in === 'path' || p.required ? 'required' : 'optional';
  return `${p.in} ${p.name}: ${type}${values}, ${required}`;
}

/** The parameter's contract without its name (a renamed path parameter keeps its contract). */
function contract(p: SwaggerParameter): string {
  return describeParam({ ...p, name: '' });
}

function compareParams(reference: Op, live: Op): SpecChange[] {
  const changes: SpecChange[] = [];
  const refPath = routeParams(reference.route);
  const livePath = routeParams(live.route);
  const find = (op: Op, name: string, where: string) =>
    op.params.find((p) => p.in === where && p.name === name) ?? null;
  // Path parameters pair by position: the route key blanks their names.
  for (let i = 0; i < Math.max(refPath.length, livePath.length); i++) {
    const a = refPath[i] !== undefined ? find(reference, refPath[i] as string, 'path') : null;
    const b = livePath[i] !== undefined ? find(live, livePath[i] as string, 'path') : null;
    if (a && b) {
      if (a.name !== b.name || contract(a) !== contract(b))
        changes.push({ what: 'parameter', from: describeParam(a), to: describeParam(b) });
    } else if (a || b)
      changes.push({
        what: 'parameter',
        from: a ? describeParam(a) : null,
        to: b ? describeParam(b) : null,
      });
  }
  // Every other parameter by where it goes and its name; the body (one a request) by itself.
  const others = (op: Op) =>
    new Map(
      op.params
        .filter((p) => p.in !== 'path' && p.in !== 'header')
        .map((p) => [p.in === 'body' ? 'body' : `${p.in}:${p.name}`, p] as const),
    );
  const before = others(reference);
  const after = others(live);
  for (const key of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const a = before.get(key) ?? null;
    const b = after.get(key) ?? null;
    if (a && b && describeParam(a) === describeParam(b)) continue;
    changes.push({
      what: key === 'body' ? 'body' : 'parameter',
      from: a ? describeParam(a) : null,
      to: b ? describeParam(b) : null,
    });
  }
  return changes;
}

function compare(reference: Op, live: Op): SpecChange[] {
  const changes: SpecChange[] = [];
  if (reference.name !== live.name) changes.push({ what: 'name', from: reference.name, to: live.name });
  if (reference.method !== live.method)
    changes.push({ what: 'method', from: reference.method, to: live.method });
  if (reference.route !== live.route) changes.push({ what: 'route', from: reference.route, to: live.route });
  return [...changes, ...compareParams(reference, live)];
}

/** The operations of `live` that differ from `reference` (the bundled description). */
export function diffSpecs(
  reference: Pick<SwaggerSpec, 'paths' | 'info'>,
  live: Pick<SwaggerSpec, 'paths' | 'info'>,
): SpecDiff {
  const refOps = operationsOf(reference);
  const liveOps = operationsOf(live);
  const liveByRoute = new Map(liveOps.map((op) => [routeKey(op.method, op.route), op]));
  const pairs: Array<[Op, Op]> = [];
  const unpairedRef: Op[] = [];
  const pairedLive = new Set<Op>();
  for (const op of refOps) {
    const twin = liveByRoute.get(routeKey(op.method, op.route));
    if (twin) {
      pairs.push([op, twin]);
      pairedLive.add(twin);
    } else unpairedRef.push(op);
  }
  // An operation that moved to another method or route keeps its name.
  const leftByName = new Map(liveOps.filter((op) => !pairedLive.has(op)).map((op) => [op.name, op]));
  const removed: SpecOperationRef[] = [];
  for (const op of unpairedRef) {
    const twin = leftByName.get(op.name);
    if (twin) {
      pairs.push([op, twin]);
      pairedLive.add(twin);
      leftByName.delete(op.name);
    } else removed.push(ref(op));
  }
  const added = liveOps.filter((op) => !pairedLive.has(op)).map(ref);
  const changed: SpecChangedOperation[] = [];
  for (const [a, b] of pairs) {
    const changes = compare(a, b);
    if (changes.length) changed.push({ ...ref(b), reference: ref(a), changes });
  }
  return {
    referenceVersion: reference.info?.version ?? 'unknown',
    liveVersion: live.info?.version ?? 'unknown',
    added: added.sort(byName),
    removed: removed.sort(byName),
    changed: changed.sort(byName),
  };
}
