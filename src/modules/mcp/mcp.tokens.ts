export const MCP_ENDPOINT = Symbol('MCP_ENDPOINT');
export const MCP_PROTOCOL = Symbol('MCP_PROTOCOL');
export const MCP_SESSION_REVOCATIONS = Symbol('MCP_SESSION_REVOCATIONS');
