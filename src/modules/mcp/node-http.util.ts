// Node http <-> web-standard glue for the endpoint: bounded body reading and streaming a web Response
// (JSON or SSE) back to a ServerResponse.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export type BodyRead =
  { ok: true; raw: Buffer | null; preParsed: unknown } | { ok: false; reason: 'too_large' | 'aborted' };

type MaybeParsed = IncomingMessage & { body?: unknown; _body?: boolean };

/** Reads the request body up to `limit` bytes; a body a framework parser already consumed is taken as is. */
export function readBody(req: MaybeParsed, limit: number): Promise<BodyRead> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit)
    return Promise.resolve({ ok: false, reason: 'too_large' });
  if (req._body === true || (req.readableEnded && req.body !== undefined)) {
    return Promise.resolve({ ok: true, raw: null, preParsed: req.body });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: BodyRead): void => {
      if (done) return;
      done = true;
      req.off('data', onData);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        finish({ ok: false, reason: 'too_large' });
        req.resume(); // drain the rest without buffering it
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () =>
      finish({
        ok: true,
        raw: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks),
        preParsed: undefined,
      }),
    );
    req.once('error', () => finish({ ok: false, reason: 'aborted' }));
    req.once('close', () => finish({ ok: false, reason: 'aborted' }));
  });
}

export function toWebRequest(req: IncomingMessage, body: Buffer | string, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  let url: string;
  try {
    url = new URL(req.url ?? '/mcp', `http://${req.headers.host ?? 'localhost'}`).href;
  } catch {
    url = 'http://localhost/mcp';
  }
  return new Request(url, { method: 'POST', headers, body, signal });
}

/** Copies a web Response to the Node response, streaming SSE bodies as they are produced. */
export async function sendWebResponse(
  res: ServerResponse,
  response: Response,
  extraHeaders: Record<string, string>,
): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  for (const [name, value] of Object.entries(extraHeaders)) res.setHeader(name, value);
  if (!response.body) {
    res.end();
    return;
  }
  if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    res.setHeader('x-accel-buffering', 'no');
    res.flushHeaders();
    const reader = response.body.getReader();
    const cancel = (): void => void reader.cancel().catch(() => undefined);
    res.once('close', cancel);
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        res.write(value);
      }
    } catch {
      // client went away or the stream failed: nothing left to tell the client
    } finally {
      res.off('close', cancel);
      res.end();
    }
    return;
  }
  const body = Buffer.from(await response.arrayBuffer());
  // A known length: head and body leave in one write instead of chunked encoding's several.
  if (!res.hasHeader('content-length') && !res.hasHeader('transfer-encoding'))
    res.setHeader('content-length', body.length);
  res.end(body);
}

/**
 * Hands requests for exactly `path` (with or without a query) to `handler` ahead of the HTTP
 * server's other 'request' listeners (the framework's router), which still see every other request.
 * The framework's routing, parameter binding and response wrapping were about 5% of the CPU of a
 * tool call and added nothing: the MCP handler reads and answers the raw request itself.
 */
export function routeFirst(
  server: Server,
  path: string,
  handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
): void {
  const others = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  server.removeAllListeners('request');
  const withQuery = `${path}?`;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '';
    if (url === path || url.startsWith(withQuery)) {
      handler(req, res).catch(() => res.destroy());
      return;
    }
    for (const listener of others) listener.call(server, req, res);
  });
}
