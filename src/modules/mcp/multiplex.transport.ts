// An in-process SDK Transport that lets ONE long-lived SDK server answer the requests of many HTTP
// exchanges: each inbound message gets a fresh internal JSON-RPC id, and the server's response is
// routed back to the exchange that sent it under the client's original id. This replaces the
// per-request "new server + new transport" pattern for the session-based revisions, whose servers
// hold nothing per request that we rely on (see docs/adr/0006).
import type { AuthInfo, JSONRPCMessage, Transport } from '@modelcontextprotocol/server';

type Pending = { originalId: string | number; resolve: (message: Record<string, unknown>) => void };

export class MultiplexTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();

  async start(): Promise<void> {}

  async close(): Promise<void> {
    for (const [, entry] of this.pending)
      entry.resolve({
        jsonrpc: '2.0',
        id: entry.originalId,
        error: { code: -32603, message: 'Server shutting down' },
      });
    this.pending.clear();
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const msg = message as Record<string, unknown>;
    if (typeof msg.id !== 'number' || !('result' in msg || 'error' in msg)) return; // no server-initiated traffic
    const entry = this.pending.get(msg.id);
    if (!entry) return;
    this.pending.delete(msg.id);
    entry.resolve({ ...msg, id: entry.originalId });
  }

  /** Delivers a request and resolves with the server's response (carrying the caller's id). */
  request(
    message: { id: string | number } & Record<string, unknown>,
    authInfo: AuthInfo,
  ): Promise<Record<string, unknown>> {
    const internalId = (this.nextId = (this.nextId + 1) % Number.MAX_SAFE_INTEGER);
    return new Promise((resolve) => {
      this.pending.set(internalId, { originalId: message.id, resolve });
      this.onmessage?.({ ...message, id: internalId } as unknown as JSONRPCMessage, { authInfo });
    });
  }

  /** Delivers a notification; nothing comes back. */
  notify(message: Record<string, unknown>, authInfo: AuthInfo): void {
    // Cancellation ids refer to the client's ids, which this transport rewrote: drop them.
    if (message.method === 'notifications/cancelled') return;
    this.onmessage?.(message as unknown as JSONRPCMessage, { authInfo });
  }

  get inFlight(): number {
    return this.pending.size;
  }
}
