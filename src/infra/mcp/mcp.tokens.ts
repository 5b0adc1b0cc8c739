// Injection token of the MCP session adapters (src/infra/mcp).
export const MCP_SESSION_REVOCATIONS = Symbol('MCP_SESSION_REVOCATIONS'); // SessionRevocations: Redis with REDIS_URL, memory otherwise
