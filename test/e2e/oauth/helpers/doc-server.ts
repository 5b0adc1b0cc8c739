// A small HTTP server for Client ID Metadata Documents: serves one good document and the bad
// cases the authorization server must refuse (a redirect, an oversize body, a slow answer, a
// document whose client_id is another URL).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A self-signed certificate for 127.0.0.1, written to a file the service trusts through
 * NODE_EXTRA_CA_CERTS (the SDK only sends https metadata URLs, as the specification requires).
 */
export function selfSignedCertificate(): { key: string; cert: string; certFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'aegis-cimd-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  return {
    key: readFileSync(join(dir, 'key.pem'), 'utf8'),
    cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    certFile: join(dir, 'cert.pem'),
  };
}

export type DocServer = {
  origin: string;
  certFile: string;
  url(path: string): string;
  close(): Promise<void>;
};

export async function startDocServer(redirectUri: string): Promise<DocServer> {
  let origin = '';
  const tls = selfSignedCertificate();
  const server: Server = createServer({ key: tls.key, cert: tls.cert }, (req, res): void => {
    const path = req.url ?? '/';
    const doc = (clientId: string) => ({
      client_id: clientId,
      client_name: 'CIMD e2e client',
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
    if (path === '/client.json') {
      res.setHeader('content-type', 'application/json');
      res.setHeader('cache-control', 'max-age=60');
      res.end(JSON.stringify(doc(`${origin}/client.json`)));
      return;
    }
    if (path === '/redirect.json') {
      res.statusCode = 302;
      res.setHeader('location', `${origin}/client.json`);
      res.end();
      return;
    }
    if (path === '/big.json') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ ...doc(`${origin}/big.json`), padding: 'x'.repeat(6000) }));
      return;
    }
    if (path === '/slow.json') {
      const timer = setTimeout(() => res.end(JSON.stringify(doc(`${origin}/slow.json`))), 11_000);
      res.once('close', () => clearTimeout(timer));
      return;
    }
    if (path === '/other.json') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(doc(`${origin}/client.json`)));
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    origin,
    certFile: tls.certFile,
    url: (path) => `${origin}${path}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
