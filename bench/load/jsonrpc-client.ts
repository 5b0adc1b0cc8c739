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

/**
 * A plain session with a server that answers requests on the session's GET event stream (POST
 * returns 202), as @ivotoby/openapi-mcp-server does: initialize by POST, then one GET stream per
 * session whose `data:` events resolve the pending requests by id. Ids are unique across sessions
 * (that server keys pending requests by id alone).
 */
export type StreamSession = {
  url: string;
  headers: Record<string, string>;
  pending: Map<number, (message: JsonRpcReply) => void>;
  close(): void;
};

type JsonRpcReply = {
  id?: number;
  result?: { isError?: boolean; content?: Array<{ text?: string }> };
  error?: { message?: string };
};

let streamIds = 0;

export async function openStreamSession(mcpUrl: string, name: string): Promise<StreamSession> {
  const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const init = await fetch(mcpUrl, {
    method: 'POST',
    headers: base,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: ++streamIds,
      method: 'initialize',
      params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name, version: '1.0.0' } },
    }),
  });
  const sessionId = init.headers.get('mcp-session-id');
  const body = await init.text();
  if (init.status !== 200 || !sessionId)
    throw new Error(`initialize: HTTP ${init.status} ${body.slice(0, 120)}`);
  const headers = { ...base, 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL_VERSION };
  const ack = await fetch(mcpUrl, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await ack.arrayBuffer();
  const abort = new AbortController();
  const pending = new Map<number, (message: JsonRpcReply) => void>();
  // The GET's headers arrive with its first event (the server writes none before), so the stream is
  // read in the background and the session is ready once a ping comes back on it.
  void (async () => {
    const stream = await fetch(mcpUrl, {
      method: 'GET',
      headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId },
      signal: abort.signal,
    });
    if (stream.status !== 200 || !stream.body) throw new Error(`GET stream: HTTP ${stream.status}`);
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of stream.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = event
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5))
          .join('\n');
        if (!data) continue;
        const message = JSON.parse(data) as JsonRpcReply;
        if (typeof message.id !== 'number') continue;
        const resolve = pending.get(message.id);
        pending.delete(message.id);
        resolve?.(message);
      }
    }
  })().catch(() => undefined); // aborted by close()
  for (let attempt = 0; ; attempt++) {
    const id = ++streamIds;
    const pong = new Promise<boolean>((resolve) => {
      pending.set(id, () => resolve(true));
      setTimeout(() => resolve(false), 250);
    });
    const res = await fetch(mcpUrl, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' }),
    });
    await res.arrayBuffer();
    if (await pong) break;
    pending.delete(id);
    if (attempt > 40) throw new Error('no reply on the GET stream');
  }
  return { url: mcpUrl, headers, pending, close: () => abort.abort() };
}

/** tools/call over stream sessions: POST (202), the result from the session's GET stream. */
export function streamToolCall(
  sessions: StreamSession[],
  tool: string,
  args: Record<string, unknown>,
  timeoutMs = 30_000,
): Call {
  let next = 0;
  return async () => {
    const session = sessions[next++ % sessions.length] as StreamSession;
    const id = ++streamIds;
    let timer: NodeJS.Timeout | undefined;
    const reply = new Promise<JsonRpcReply>((resolve, reject) => {
      session.pending.set(id, resolve);
      timer = setTimeout(() => {
        session.pending.delete(id);
        reject(new Error(`no reply on the GET stream within ${timeoutMs} ms`));
      }, timeoutMs);
    });
    try {
      const res = await fetch(session.url, {
        method: 'POST',
        headers: session.headers,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: tool, arguments: args },
        }),
      });
      await res.arrayBuffer();
      if (res.status !== 202 && res.status !== 200) {
        session.pending.delete(id);
        throw new Error(`HTTP ${res.status}`);
      }
      const message = await reply;
      if (message.error || !message.result)
        throw new Error(`${message.error?.message ?? 'no result'}`.slice(0, 200));
      if (message.result.isError)
        throw new Error(`tool error: ${(message.result.content?.[0]?.text ?? '').slice(0, 200)}`);
    } finally {
      clearTimeout(timer);
      reply.catch(() => undefined);
    }
  };
}
