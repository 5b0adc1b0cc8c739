// Loads Gitea's swagger from the bundled copy, a file, or the live Gitea, and checks it is usable.
// Parameter and response $refs are resolved here; schema $refs are inlined by the catalogue.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
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

export type SpecLoadOptions = {
  /** SPEC_SOURCE: 'bundled' | 'live' | a file path. */
  source: string;
  giteaUrl?: string;
  /** Fetches the live spec text; injected so the core needs no HTTP client. */
  fetchText?: (url: string) => Promise<string>;
  warn?: (message: string) => void;
};

/** Finds gitea/swagger.v1.json by walking up from this file (works from src/ and dist/src/). */
export function bundledSpecPath(): string {
  let dir = __dirname;
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, 'gitea', 'swagger.v1.json');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new SpecLoadError('bundled Gitea spec gitea/swagger.v1.json not found next to the service');
}

let bundledCache: SwaggerSpec | null = null;

export function loadBundledSpec(): SwaggerSpec {
  if (!bundledCache) bundledCache = parseSpec(readFileSync(bundledSpecPath(), 'utf8'), 'bundled spec');
  return bundledCache;
}

// The service builds its catalogue once and then drops the swagger document; caching it at module
// level would pin the whole parsed spec for the life of the process.
function loadBundledSpecOnce(): SwaggerSpec {
  return bundledCache ?? parseSpec(readFileSync(bundledSpecPath(), 'utf8'), 'bundled spec');
}

export async function loadSpec(options: SpecLoadOptions): Promise<LoadedSpec> {
  const source = options.source.trim() || 'bundled';
  if (source === 'bundled')
    return { spec: loadBundledSpecOnce(), source: 'bundled', location: bundledSpecPath() };
  if (source === 'live') {
    const url = `${(options.giteaUrl ?? '').replace(/\/+$/, '')}/swagger.v1.json`;
    try {
      if (!options.giteaUrl) throw new SpecLoadError('GITEA_URL is not set');
      const fetchText = options.fetchText ?? defaultFetchText;
      return { spec: parseSpec(await fetchText(url), url), source: 'live', location: url };
    } catch (error) {
      // The live spec is a convenience; the bundled one keeps the service usable.
      options.warn?.(`live Gitea spec unusable (${describe(error)}); falling back to the bundled Gitea spec`);
      return { spec: loadBundledSpecOnce(), source: 'bundled', location: bundledSpecPath() };
    }
  }
  const path = resolve(source);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SpecLoadError(`SPEC_SOURCE file ${path} cannot be read: ${describe(error)}`);
  }
  return { spec: parseSpec(text, path), source: 'file', location: path };
}

async function defaultFetchText(url: string): Promise<string> {
  const response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(15_000) });
  if (!response.ok) throw new SpecLoadError(`HTTP ${response.status}`);
  return response.text();
}

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
