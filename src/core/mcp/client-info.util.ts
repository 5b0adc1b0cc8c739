// The MCP client's self-description (name, version) as it reaches the audit record. It comes from
// `initialize.params.clientInfo` (2025-06-18 / 2025-11-25) or, on 2026-07-28, from every request's
// `params._meta["io.modelcontextprotocol/clientInfo"]`. Both are caller-controlled text: only
// strings are taken, control characters are dropped and lengths are bounded.

export const CLIENT_INFO_META_KEY = 'io.modelcontextprotocol/clientInfo';
export const MAX_CLIENT_NAME_CHARS = 100;
export const MAX_CLIENT_VERSION_CHARS = 50;
/** Longer inputs are not worth scanning: they are cut to this before cleaning. */
const MAX_SCAN_CHARS = 1024;

export type ClientInfo = { name: string; version: string };

// eslint-disable-next-line no-control-regex -- dropping control characters is the point
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/g;

function clean(value: string, max: number): string {
  return value.slice(0, MAX_SCAN_CHARS).replace(CONTROL_CHARS, '').trim().slice(0, max);
}

/** `{name, version}` from an Implementation object, or null when there is no usable name. */
export function parseClientInfo(value: unknown): ClientInfo | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const { name, version } = value as { name?: unknown; version?: unknown };
  if (typeof name !== 'string') return null;
  const cleanName = clean(name, MAX_CLIENT_NAME_CHARS);
  if (!cleanName) return null;
  return {
    name: cleanName,
    version: typeof version === 'string' ? clean(version, MAX_CLIENT_VERSION_CHARS) : '',
  };
}

/** The 2026-07-28 envelope's client info from a request's raw params, before any SDK strips it. */
export function clientInfoFromParams(params: unknown): ClientInfo | null {
  if (params === null || typeof params !== 'object') return null;
  const meta = (params as { _meta?: unknown })._meta;
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) return null;
  return parseClientInfo((meta as Record<string, unknown>)[CLIENT_INFO_META_KEY]);
}
