// Fetches Client ID Metadata Documents with the limits an authorization server needs against SSRF
// and slow or huge answers: the resolved address must be public (checked at connect time, so DNS
// rebinding cannot slip past a check made earlier), at most CIMD_MAX_BYTES, CIMD_TIMEOUT_MS in
// total, no redirects followed. Origins in OAUTH_CIMD_ALLOW_HTTP_ORIGINS (tests, loopback
// development) may use plain HTTP and private addresses.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { CIMD_MAX_BYTES, CIMD_TIMEOUT_MS, isForbiddenAddress } from '../../core/oauth/cimd';

export type CimdFetchResult =
  { ok: true; document: unknown; cacheControl: string | null } | { ok: false; message: string };

export class CimdFetcher {
  private readonly publicOnly: Agent;
  private readonly trusted: Agent;
  private readonly allowed: Set<string>;

  constructor(
    allowHttpOrigins: readonly string[],
    private readonly limits = { maxBytes: CIMD_MAX_BYTES, timeoutMs: CIMD_TIMEOUT_MS },
  ) {
    this.allowed = new Set(allowHttpOrigins.map((o) => o.replace(/\/$/, '').toLowerCase()));
    const lookup = (
      hostname: string,
      options: object,
      callback: (
        err: NodeJS.ErrnoException | null,
        address: string | LookupAddress[],
        family?: number,
      ) => void,
    ): void => {
      dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
        if (err) return callback(err, []);
        const list = addresses as LookupAddress[];
        const bad = list.find((a) => isForbiddenAddress(a.address));
        if (bad || list.length === 0) {
          const error = new Error(`${hostname} resolves to a non-public address`) as NodeJS.ErrnoException;
          error.code = 'EFORBIDDENADDRESS';
          return callback(error, []);
        }
        const all = (options as { all?: boolean }).all;
        if (all) return callback(null, list);
        return callback(null, list[0]!.address, list[0]!.family);
      });
    };
    this.publicOnly = new Agent({ connect: { lookup, timeout: limits.timeoutMs }, pipelining: 0 });
    this.trusted = new Agent({ connect: { timeout: limits.timeoutMs }, pipelining: 0 });
  }

  async fetch(url: string): Promise<CimdFetchResult> {
    const parsed = new URL(url);
    const trusted = this.allowed.has(parsed.origin.toLowerCase());
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    if (!trusted && isIP(host) && isForbiddenAddress(host))
      return { ok: false, message: 'the metadata document URL points at a non-public address' };
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.limits.timeoutMs);
    try {
      const res = await request(url, {
        method: 'GET',
        headers: { accept: 'application/json' },
        dispatcher: trusted ? this.trusted : this.publicOnly,
        signal: abort.signal,
      });
      // Destroying the body early (too large) must not surface as an unhandled stream error.
      res.body.on('error', () => undefined);
      if (res.statusCode >= 300 && res.statusCode < 400) {
        await res.body.dump();
        return { ok: false, message: 'the metadata document URL redirects; redirects are not followed' };
      }
      if (res.statusCode !== 200) {
        await res.body.dump();
        return { ok: false, message: `fetching the metadata document answered HTTP ${res.statusCode}` };
      }
      const declared = Number(res.headers['content-length'] ?? '0');
      if (declared > this.limits.maxBytes) {
        res.body.destroy();
        return { ok: false, message: `the metadata document exceeds ${this.limits.maxBytes} bytes` };
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > this.limits.maxBytes) {
          res.body.destroy();
          return { ok: false, message: `the metadata document exceeds ${this.limits.maxBytes} bytes` };
        }
        chunks.push(chunk as Buffer);
      }
      let document: unknown;
      try {
        document = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return { ok: false, message: 'the metadata document is not valid JSON' };
      }
      const cc = res.headers['cache-control'];
      return { ok: true, document, cacheControl: Array.isArray(cc) ? (cc[0] ?? null) : (cc ?? null) };
    } catch (error) {
      if (abort.signal.aborted)
        return {
          ok: false,
          message: `fetching the metadata document took longer than ${this.limits.timeoutMs} ms`,
        };
      const code =
        (error as { code?: string; cause?: { code?: string } }).code ??
        (error as { cause?: { code?: string } }).cause?.code;
      if (code === 'EFORBIDDENADDRESS' || /non-public address/.test(String((error as Error).message)))
        return { ok: false, message: 'the metadata document URL resolves to a non-public address' };
      return { ok: false, message: 'the metadata document could not be fetched' };
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.publicOnly.close(), this.trusted.close()]);
  }
}
