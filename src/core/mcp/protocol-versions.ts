// Which MCP protocol revisions the /mcp endpoint serves, and how a request is checked against them.
// 2026-07-28 ("modern") carries its version on every request; 2025-06-18 and 2025-11-25 ("legacy")
// negotiate it once in `initialize` and then repeat it in the MCP-Protocol-Version header.
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = ['2026-07-28'];
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18'];
export const ALL_PROTOCOL_VERSIONS: readonly string[] = [
  ...MODERN_PROTOCOL_VERSIONS,
  ...LEGACY_PROTOCOL_VERSIONS,
];

export type VersionCheck = { ok: true; version: string } | { ok: false; message: string };

const VERSION_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Checks the MCP-Protocol-Version header of a legacy request that belongs to a session negotiated at
 * `sessionVersion`. A missing header means the negotiated version (clients of 2025-03-26 never sent
 * one); an unknown version or one that differs from the session's is refused (HTTP 400).
 */
export function checkLegacyVersionHeader(header: string | undefined, sessionVersion: string): VersionCheck {
  if (header === undefined || header === '') return { ok: true, version: sessionVersion };
  const value = header.trim();
  if (!VERSION_SHAPE.test(value) || !ALL_PROTOCOL_VERSIONS.includes(value)) {
    return {
      ok: false,
      message: `Unsupported MCP-Protocol-Version ${JSON.stringify(value.slice(0, 32))}; supported: ${ALL_PROTOCOL_VERSIONS.join(', ')}`,
    };
  }
  if (value !== sessionVersion) {
    return {
      ok: false,
      message: `MCP-Protocol-Version ${value} does not match the version negotiated for this session (${sessionVersion})`,
    };
  }
  return { ok: true, version: value };
}

/** The version a legacy `initialize` will settle on: the client's if we serve it, else our newest legacy one. */
export function negotiateLegacyVersion(requested: unknown): string {
  return typeof requested === 'string' && LEGACY_PROTOCOL_VERSIONS.includes(requested)
    ? requested
    : (LEGACY_PROTOCOL_VERSIONS[0] as string);
}
