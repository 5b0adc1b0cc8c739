// The reference hop: receive → forward to the upstream → stream the answer back, nothing else.
// Its cost is the physical floor for any proxy on this machine, so the sidecar is judged against it.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export type PassThrough = { url: string; close(): Promise<void> };

export async function startPassThrough(upstreamUrl: string, port = 0): Promise<PassThrough> {
  const target = new URL(upstreamUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const server = http.createServer((req, res) => {
    const out = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
        agent,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    out.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(out);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const addr = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${addr.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
