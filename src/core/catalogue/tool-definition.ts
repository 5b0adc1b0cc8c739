// The shape of an MCP tool as the catalogue builds it. Here rather than in the executor's contract
// so that the catalogue depends on nothing above it (no import cycle inside the core).
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export type McpToolDefinition = {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonObject;
  annotations?: {
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
};
