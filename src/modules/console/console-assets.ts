// Where the built console (web/dist, made by `npm --prefix web run build`, which the root
// `npm ci` runs) lies, found from this file upwards so it works from src (tests) and dist.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const CONSOLE_PACKAGE = 'aegis-gitea-mcp';

export function findConsoleDist(from: string = __dirname): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === CONSOLE_PACKAGE)
          return join(dir, 'web', 'dist');
      } catch {
        // not our manifest: keep walking up
      }
    }
    if (dirname(dir) === dir) return null;
  }
}

/**
 * Headers of every console response: no framing by anyone (anti-clickjacking for the pages that
 * change things), scripts and styles only from this origin, nothing sniffed, no referrer to Gitea.
 */
export const CONSOLE_SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "frame-ancestors 'none'; form-action 'self'; base-uri 'none'; object-src 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

export const contentTypeOf = (file: string): string =>
  TYPES[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream';
