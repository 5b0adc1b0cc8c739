// A bare JSON-RPC-over-HTTP MCP client for the throughput and latency targets: fetch + JSON.parse,
// exactly what the direct and pass-through targets do with their plain HTTP calls, so that every
// target is driven by the same client code and the load generator (which shares the machine) costs
// the same per call whichever target it drives. The official SDK client does much more per call
// (schema validation of every message and result, its own bookkeeping): about 2-3 times the client
// CPU of a plain fetch (see the CPU-per-call rows). SDK-client rows are kept next to these as info.
import type { Call } from './load-runner';

/** `meta` is set for 2026-07-28 (no session: every request carries the envelope in `_meta`). */
export type RawSession = { url: string; headers: Record<string, string>; meta?: Record<string, unknown> };

const PROTOCOL_VERSION = '2025-06-18';
export const MODERN_PROTOCOL_VERSION = '2026-07-28';
export const BENCH_PROTOCOL_VERSIONS = ['2025-06-18', '2025-11-25', MODERN_PROTOCOL_VERSION] as const;

/**
 * initialize + notifications/initialized, as any MCP client does once per session; for 2026-07-28
 * nothing is sent: there is no session, each request names the revision and client in `_meta`.
 */
export async function openRawSession(
  mcpUrl: string,
  bearer: string,
  name: string,
  version: string = PROTOCOL_VERSION,
): Promise<RawSession> {
  const base = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${bearer}`,
  };
  if (version === MODERN_PROTOCOL_VERSION) {
    return {
      url: mcpUrl,
      headers: { ...base, 'mcp-protocol-version': version, 'mcp-method': 'tools/call' },
      meta: {
        'io.modelcontextprotocol/protocolVersion': version,
        'io.modelcontextprotocol/clientInfo': { name, version: '1.0.0' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    };
  }
  const init = await fetch(mcpUrl, {
    method: 'POST',
    headers: base,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name, version: '1.0.0' } },
    }),
  });
  const sessionId = init.headers.get('mcp-session-id');
  const body = await init.text();
  if (init.status !== 200 || !sessionId)
    throw new Error(`initialize: HTTP ${init.status} ${body.slice(0, 120)}`);
  const headers = { ...base, 'mcp-session-id': sessionId, 'mcp-protocol-version': version };
  const ack = await fetch(mcpUrl, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await ack.arrayBuffer();
  return { url: mcpUrl, headers };
}

/** One tools/call per invocation, round-robin over the sessions; a tool error counts as a failure. */
export function rawToolCall(sessions: RawSession[], tool: string, args: Record<string, unknown>): Call {
  let next = 0;
  let id = 0;
  return async () => {
    const session = sessions[next++ % sessions.length] as RawSession;
    const res = await fetch(session.url, {
      method: 'POST',
      headers: session.meta ? { ...session.headers, 'mcp-name': tool } : session.headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: ++id,
        method: 'tools/call',
        params: { name: tool, arguments: args, ...(session.meta ? { _meta: session.meta } : {}) },
      }),
    });
    const message = (await responseMessage(res)) as {
      result?: { isError?: boolean; content?: Array<{ text?: string }> };
      error?: { message?: string };
    };
    if (res.status !== 200 || message.error || !message.result)
      throw new Error(`HTTP ${res.status}: ${message.error?.message ?? 'no result'}`.slice(0, 200));
    if (message.result.isError)
      throw new Error(`tool error: ${(message.result.content?.[0]?.text ?? '').slice(0, 200)}`);
  };
}

/** The JSON-RPC response of a POST: a JSON body, or the last `data:` event of an SSE body. */
async function responseMessage(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!(res.headers.get('content-type') ?? '').includes('text/event-stream')) return JSON.parse(text);
  const events = text.split('\n').filter((line) => line.startsWith('data:'));
  return JSON.parse((events[events.length - 1] ?? 'data: {}').slice(5));
}
