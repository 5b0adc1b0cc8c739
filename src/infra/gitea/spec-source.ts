// Reads Gitea's swagger: the copy bundled with the service, a file (SPEC_SOURCE=<path>) or the live
// Gitea (SPEC_SOURCE=live, falling back to the bundled copy). The I/O lives here; checking and
// resolving the document is the core's (src/core/catalogue/spec-loader.ts).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseSpec, SpecLoadError, type LoadedSpec } from '../../core/catalogue/spec-loader';
import type { SwaggerSpec } from '../../core/catalogue/swagger-types';

export type SpecLoadOptions = {
  /** SPEC_SOURCE: 'bundled' | 'live' | a file path. */
  source: string;
  giteaUrl?: string;
  /** Fetches the live spec text through the Gitea HTTP client (required for SPEC_SOURCE=live). */
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

/** The bundled spec, parsed once per process (tests and benches; the service uses loadSpec). */
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
      if (!options.fetchText) throw new SpecLoadError('no Gitea HTTP client to read it with');
      return { spec: parseSpec(await options.fetchText(url), url), source: 'live', location: url };
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

function describe(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 200) : 'unknown error';
}
