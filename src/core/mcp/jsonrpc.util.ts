// Shape checks and error bodies for JSON-RPC 2.0 over the MCP endpoint (the parts the transport
// decides before a message reaches the SDK server).
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/** Implementation-defined server error used for transport refusals (auth, limits, sessions). */
export const SERVER_ERROR = -32000;

export type JsonRpcId = string | number;

export type InboundMessage =
  | { kind: 'request'; id: JsonRpcId; method: string; params: Record<string, unknown> | undefined }
  | { kind: 'notification'; method: string; params: Record<string, unknown> | undefined }
  | { kind: 'response'; id: JsonRpcId | null }
  | { kind: 'invalid'; id: JsonRpcId | null; message: string };

const isId = (value: unknown): value is JsonRpcId =>
  (typeof value === 'string' && value.length <= 256) || (typeof value === 'number' && Number.isFinite(value));

/** Classifies one parsed JSON value as a JSON-RPC message (batches are classified as invalid by the caller). */
export function classifyMessage(value: unknown): InboundMessage {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { kind: 'invalid', id: null, message: 'Invalid Request: expected a JSON-RPC object' };
  }
  const msg = value as Record<string, unknown>;
  const id = isId(msg.id) ? msg.id : null;
  if (msg.jsonrpc !== '2.0')
    return { kind: 'invalid', id, message: 'Invalid Request: jsonrpc must be "2.0"' };
  if ('id' in msg && msg.id !== undefined && !isId(msg.id) && msg.id !== null) {
    return { kind: 'invalid', id: null, message: 'Invalid Request: id must be a string or a number' };
  }
  if (typeof msg.method === 'string') {
    if (msg.method.length === 0 || msg.method.length > 256)
      return { kind: 'invalid', id, message: 'Invalid Request: bad method' };
    if (
      msg.params !== undefined &&
      (msg.params === null || typeof msg.params !== 'object' || Array.isArray(msg.params))
    ) {
      return { kind: 'invalid', id, message: 'Invalid Request: params must be an object' };
    }
    const params = msg.params as Record<string, unknown> | undefined;
    if (id === null) {
      if ('id' in msg && msg.id !== undefined)
        return { kind: 'invalid', id: null, message: 'Invalid Request: id must not be null' };
      return { kind: 'notification', method: msg.method, params };
    }
    return { kind: 'request', id, method: msg.method, params };
  }
  if ('result' in msg || 'error' in msg) return { kind: 'response', id };
  return { kind: 'invalid', id, message: 'Invalid Request: missing method' };
}

export function errorBody(id: JsonRpcId | null, code: number, message: string, data?: unknown): string {
  const error: Record<string, unknown> = { code, message };
  if (data !== undefined) error.data = data;
  return JSON.stringify({ jsonrpc: '2.0', id, error });
}
