// One small facade over the official MCP clients of both SDK lines, so a test can run the same
// scenario as a 2025-06-18, 2025-11-25 or 2026-07-28 client.
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client';

export type Line = 'sdk1' | 'sdk2';
export type Version = '2025-06-18' | '2025-11-25' | '2026-07-28';

export type ToolResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };

export type McpClient = {
  line: Line;
  version: string | undefined;
  sessionId: string | undefined;
  /** The server's `instructions` from initialize (or discovery, on 2026-07-28). */
  instructions: string | undefined;
  listTools(): Promise<Array<{ name: string; inputSchema: unknown }>>;
  callTool(name: string, args: Record<string, unknown>, meta?: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
};

export const CLIENTS: Array<{ line: Line; version: Version }> = [
  { line: 'sdk1', version: '2025-06-18' },
  { line: 'sdk1', version: '2025-11-25' },
  { line: 'sdk2', version: '2025-06-18' },
  { line: 'sdk2', version: '2025-11-25' },
  { line: 'sdk2', version: '2026-07-28' },
];

// The 1.x client always offers its newest version; an older client is emulated by offering
// 2025-06-18 in the initialize request (the server then settles on it, as with a real older client).
function offering(version: string): typeof fetch {
  return async (input, init) => {
    if (init?.body && typeof init.body === 'string' && init.body.includes('"method":"initialize"')) {
      const body = JSON.parse(init.body) as { params: { protocolVersion: string } };
      body.params.protocolVersion = version;
      init = { ...init, body: JSON.stringify(body) };
    }
    return fetch(input, init);
  };
}

export async function connect(
  url: string,
  line: Line,
  version: Version,
  headers: Record<string, string>,
): Promise<McpClient> {
  const info = { name: `e2e-${line}-${version}`, version: '1.0.0' };
  if (line === 'sdk1') {
    if (version === '2026-07-28') throw new Error('SDK 1.x does not speak 2026-07-28');
    const transport = new Transport1(new URL(url), {
      requestInit: { headers },
      ...(version === '2025-06-18' ? { fetch: offering(version) } : {}),
    });
    const client = new Client1(info, { capabilities: {} });
    await client.connect(transport);
    return {
      line,
      version: transport.protocolVersion,
      sessionId: transport.sessionId,
      instructions: client.getInstructions(),
      listTools: async () =>
        (await client.listTools()).tools as Array<{ name: string; inputSchema: unknown }>,
      callTool: async (name, args, meta) =>
        (await client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) })) as ToolResult,
      close: async () => {
        await transport.terminateSession().catch(() => undefined);
        await client.close();
      },
    };
  }
  const transport = new Transport2(new URL(url), { requestInit: { headers } });
  const client = new Client2(info, {
    capabilities: {},
    ...(version === '2026-07-28'
      ? { versionNegotiation: { mode: { pin: '2026-07-28' } } }
      : { supportedProtocolVersions: [version] }),
  });
  await client.connect(transport);
  return {
    line,
    version: client.getNegotiatedProtocolVersion(),
    sessionId: transport.sessionId,
    instructions: client.getInstructions(),
    listTools: async () => (await client.listTools()).tools as Array<{ name: string; inputSchema: unknown }>,
    callTool: async (name, args, meta) =>
      (await client.callTool({
        name,
        arguments: args,
        ...(meta ? { _meta: meta } : {}),
      })) as unknown as ToolResult,
    close: async () => {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}

export function envelope(result: ToolResult): any {
  const text = result.content[0]?.text;
  if (typeof text !== 'string') throw new Error('tool result has no text');
  return JSON.parse(text);
}
