// Injection tokens of the MCP module; the session revocation store's token (MCP_SESSION_REVOCATIONS) lives in src/infra/mcp.
export const MCP_ENDPOINT = Symbol('MCP_ENDPOINT');
export const MCP_PROTOCOL = Symbol('MCP_PROTOCOL');
