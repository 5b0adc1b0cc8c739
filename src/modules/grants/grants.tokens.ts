// Injection tokens of the grants module.
export const CONNECTIONS_SERVICE = Symbol('CONNECTIONS_SERVICE'); // ConnectionsService
/** McpClientGrants (./connections.service.ts), provided once the MCP authorization server is on. */
export const MCP_CLIENT_GRANTS = Symbol('MCP_CLIENT_GRANTS');
