// Checks that a parsed Gitea swagger document is usable and resolves its parameter and response
// $refs; schema $refs are inlined by the catalogue. Reading it (the bundled copy, a file, the live
// Gitea) is I/O and lives in src/infra/gitea/spec-source.ts: the core takes the document's text.
import {
  HTTP_METHODS,
  type SwaggerOperation,
  type SwaggerParameter,
  type SwaggerResponse,
  type SwaggerSpec,
} from './swagger-types';

export class SpecLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpecLoadError';
  }
}

export type LoadedSpec = { spec: SwaggerSpec; source: 'bundled' | 'live' | 'file'; location: string };

function describe(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 200) : 'unknown error';
}

/** Parses and checks a swagger document; resolves parameter and response $refs in place. */
export function parseSpec(text: string, where: string): SwaggerSpec {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new SpecLoadError(`${where} is not valid JSON: ${describe(error)}`);
  }
  return checkSpec(raw, where);
}

export function checkSpec(raw: unknown, where: string): SwaggerSpec {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new SpecLoadError(`${where} is not a JSON object`);
  const spec = raw as SwaggerSpec;
  if (spec.swagger !== '2.0')
    throw new SpecLoadError(`${where} is not a Swagger 2.0 document (swagger: "2.0" missing)`);
  if (!spec.paths || typeof spec.paths !== 'object') throw new SpecLoadError(`${where} has no paths`);
  const seen = new Set<string>();
  let count = 0;
  for (const [path, item] of Object.entries(spec.paths)) {
    if (!path.startsWith('/')) throw new SpecLoadError(`${where}: path "${path}" does not start with /`);
    const shared = ((item as { parameters?: SwaggerParameter[] }).parameters ?? []).map((p) =>
      resolveParameter(spec, p, where),
    );
    for (const method of HTTP_METHODS) {
      const op = item[method] as SwaggerOperation | undefined;
      if (!op) continue;
      if (!op.operationId || typeof op.operationId !== 'string')
        throw new SpecLoadError(`${where}: ${method.toUpperCase()} ${path} has no operationId`);
      if (seen.has(op.operationId))
        throw new SpecLoadError(`${where}: duplicate operationId ${op.operationId}`);
      seen.add(op.operationId);
      const own = (op.parameters ?? []).map((p) => resolveParameter(spec, p, where));
      const names = new Set(own.map((p) => `${p.in}:${p.name}`));
      op.parameters = [...shared.filter((p) => !names.has(`${p.in}:${p.name}`)), ...own];
      for (const p of op.parameters) {
        if (p.in === 'path' && !path.includes(`{${p.name}}`))
          throw new SpecLoadError(
            `${where}: ${op.operationId} declares path parameter ${p.name} missing from ${path}`,
          );
      }
      if (op.responses) {
        for (const [code, response] of Object.entries(op.responses))
          op.responses[code] = resolveResponse(spec, response, where);
      }
      count++;
    }
  }
  if (count === 0) throw new SpecLoadError(`${where} declares no operations`);
  return spec;
}

function refName(ref: string, prefix: string, where: string): string {
  if (!ref.startsWith(prefix)) throw new SpecLoadError(`${where}: unsupported $ref ${ref}`);
  return decodeURIComponent(ref.slice(prefix.length)).replace(/~1/g, '/').replace(/~0/g, '~');
}

function resolveParameter(
  spec: SwaggerSpec,
  p: SwaggerParameter | { $ref: string },
  where: string,
): SwaggerParameter {
  if ('$ref' in p && typeof p.$ref === 'string') {
    const target = spec.parameters?.[refName(p.$ref, '#/parameters/', where)];
    if (!target) throw new SpecLoadError(`${where}: unresolved $ref ${p.$ref}`);
    return target;
  }
  return p as SwaggerParameter;
}

function resolveResponse(
  spec: SwaggerSpec,
  r: SwaggerResponse | { $ref: string },
  where: string,
): SwaggerResponse {
  if (r && '$ref' in r && typeof r.$ref === 'string') {
    const target = spec.responses?.[refName(r.$ref, '#/responses/', where)];
    if (!target) throw new SpecLoadError(`${where}: unresolved $ref ${r.$ref}`);
    return target;
  }
  return r as SwaggerResponse;
}

/** Resolves a schema $ref to its definition; throws on a dangling reference. */
export function definitionFor(
  spec: SwaggerSpec,
  ref: string,
): { name: string; schema: Record<string, unknown> } {
  const name = refName(ref, '#/definitions/', 'spec');
  const schema = spec.definitions?.[name];
  if (!schema) throw new SpecLoadError(`unresolved $ref ${ref}`);
  return { name, schema };
}
