// A bare MCP `initialize` over HTTP, for the suites that check what the endpoint answers a
// credential (status, challenge, session) without an SDK client in between.
export const MCP_ACCEPT = 'application/json, text/event-stream';

export type InitializeOptions = {
  /** clientInfo.name (the audit record and logs show it). */
  client?: string;
  protocolVersion?: string;
  id?: number;
  headers?: Record<string, string>;
};

export function postInitialize(
  url: string,
  authorization: string,
  opts: InitializeOptions = {},
): Promise<Response> {
  const protocolVersion = opts.protocolVersion ?? '2025-11-25';
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: MCP_ACCEPT, authorization, ...opts.headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: opts.id ?? 1,
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: { name: opts.client ?? 'raw', version: '1' } },
    }),
  });
}
