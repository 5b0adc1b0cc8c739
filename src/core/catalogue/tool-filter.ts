// Global tool filtering: DISABLED_TOOLS (names and globs), TOOLSETS (swagger tags), READ_ONLY.
import type { CatalogueOperation } from './tool-catalogue';

export type FilterConfig = { disabledTools: string[]; toolsets: string[]; readOnly: boolean };

/** Case-insensitive glob match: `*` any run of characters, `?` one character. */
export function globToRegExp(glob: string): RegExp {
  const escaped = glob
    .trim()
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${escaped}$`, 'i');
}

export function matchesAny(name: string, patterns: string[]): string | null {
  for (const pattern of patterns) {
    if (pattern.trim() && globToRegExp(pattern).test(name)) return pattern;
  }
  return null;
}

export type Refusal = { kind: 'tool_disabled' | 'read_only'; message: string };

/** Why the global configuration refuses this operation, or null when it is allowed. */
export function globalRefusal(op: CatalogueOperation, config: FilterConfig): Refusal | null {
  const pattern = matchesAny(op.operationId, config.disabledTools);
  if (pattern)
    return {
      kind: 'tool_disabled',
      message: `tool ${op.operationId} is disabled by the administrator (DISABLED_TOOLS: ${pattern})`,
    };
  const toolsets = config.toolsets.map((t) => t.trim().toLowerCase()).filter(Boolean);
  if (toolsets.length && !op.tags.some((tag) => toolsets.includes(tag.toLowerCase()))) {
    return {
      kind: 'tool_disabled',
      message: `tool ${op.operationId} (toolset ${op.tags.join(', ') || 'none'}) is not in the enabled TOOLSETS`,
    };
  }
  if (config.readOnly && op.method !== 'GET') {
    return {
      kind: 'read_only',
      message: `tool ${op.operationId} changes data and the service runs with READ_ONLY=true`,
    };
  }
  return null;
}
