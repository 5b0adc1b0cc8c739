// Issue 12, in the core: every encoding of a text is seen through and rewritten in its own encoding;
// binary content and containers are scanned as bytes and withheld when anything is found or cannot
// be read.
import { deflateRawSync, gzipSync } from 'node:zlib';
import {
  classifyBytes,
  decodeBytes,
  encodeText,
  scrubResult,
  scrubResultAsync,
  type ScrubContext,
} from '../../../src/core/secrets';
import { tarGz, zip } from '../../simulator/git.util';

const TOKEN = ['0123456789', 'abcdef0123', '456789abcd', 'ef01234567'].join(''); // a Gitea-like 40-hex token
const GH = ['gh', 'p_', 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'].join('');
const TEXT = `# Configuración\nGITEA_TOKEN=${TOKEN}\nGITHUB_TOKEN=${GH}\n`;
const ctx = (mode: ScrubContext['mode'] = 'mask', extra: Partial<ScrubContext> = {}): ScrubContext => ({
  exactSecrets: [TOKEN],
  mode,
  skipPatterns: false,
  ...extra,
});

const utf16be = (s: string): Buffer => Buffer.from(s, 'utf16le').swap16();
const ENCODINGS: Array<[string, Buffer]> = [
  ['utf-8', Buffer.from(TEXT, 'utf8')],
  ['utf-8 with BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(TEXT)])],
  ['utf-8 with a trailing NUL', Buffer.concat([Buffer.from(TEXT), Buffer.from([0])])],
  ['latin1', Buffer.from(TEXT, 'latin1')],
  ['utf-16le with BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(TEXT, 'utf16le')])],
  ['utf-16be with BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(TEXT)])],
  ['utf-16le without BOM', Buffer.from(TEXT, 'utf16le')],
  ['utf-16be without BOM', utf16be(TEXT)],
];

describe('text encodings', () => {
  it.each(ENCODINGS)('%s is classified as text and decodes losslessly', (_, bytes) => {
    const cls = classifyBytes(bytes);
    expect(cls.text).toBe(true);
    expect(decodeBytes(bytes, cls).replace(/\0$/, '')).toBe(TEXT);
    expect(encodeText(decodeBytes(bytes, cls), cls, bytes)).toEqual(bytes);
  });

  it('random bytes are opaque', () => {
    const bytes = Buffer.alloc(4096);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919 + 13) % 256;
    expect(classifyBytes(bytes).text).toBe(false);
  });

  it.each(ENCODINGS)('base64 content in %s: both secrets replaced, same encoding and BOM', (_, bytes) => {
    const r = scrubResult({ encoding: 'base64', content: bytes.toString('base64') }, ctx());
    const out = Buffer.from((r.value as { content: string }).content, 'base64');
    const cls = classifyBytes(bytes);
    expect(out.subarray(0, cls.bom)).toEqual(bytes.subarray(0, cls.bom));
    const text = decodeBytes(out, classifyBytes(out));
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(GH);
    expect(text).toContain('GITEA_TOKEN=[REDACTED]');
    expect(text).toContain('[[aegis-masked:github-token:');
    expect(text).toContain('Configuración');
    expect(r).toMatchObject({ redactions: 1, masks: 1, blocked: null });
  });

  it('block mode blocks a provider key found in UTF-16 content', () => {
    const r = scrubResult({ content_base64: ENCODINGS[6]![1].toString('base64') }, ctx('block'));
    expect(r.blocked?.kinds).toContain('github-token');
  });
});

describe('binary content', () => {
  const binary = (inner: Buffer): Buffer => {
    const noise = Buffer.alloc(2048);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 31 + 7) % 256;
    return Buffer.concat([noise, inner, noise]);
  };

  it.each([
    ['as UTF-8 bytes', Buffer.from(TOKEN)],
    ['as UTF-16LE bytes', Buffer.from(TOKEN, 'utf16le')],
    ['as UTF-16BE bytes', utf16be(TOKEN)],
  ])('an exact secret %s inside binary withholds it, in every mode', async (_, inner) => {
    for (const mode of ['off', 'mask', 'block'] as const) {
      const value = {
        content_base64: binary(inner).toString('base64'),
        content_type: 'application/octet-stream',
      };
      for (const r of [scrubResult(value, ctx(mode)), await scrubResultAsync(value, ctx(mode))]) {
        expect(r.blocked?.reason).toContain('binary content');
        expect(r.blocked?.kinds).toEqual(['configured-secret']);
        expect(r.redactions).toBe(1);
      }
    }
  });

  it('a provider key inside binary withholds it in mask mode, not with detection off', () => {
    const value = { content_base64: binary(Buffer.from(GH)).toString('base64') };
    expect(scrubResult(value, ctx('mask')).blocked?.kinds).toEqual(['github-token']);
    expect(scrubResult(value, ctx('off')).blocked).toBeNull();
  });

  it('clean binary comes back byte for byte', () => {
    const raw = binary(Buffer.from('nothing to see')).toString('base64');
    const r = scrubResult({ content_base64: raw }, ctx('block'));
    expect(r.blocked).toBeNull();
    expect((r.value as { content_base64: string }).content_base64).toBe(raw);
  });
});

describe('archives', () => {
  const tree = (files: Record<string, Buffer | string>) =>
    new Map(Object.entries(files).map(([k, v]) => [k, Buffer.isBuffer(v) ? v : Buffer.from(v)]));
  const secretTree = tree({ 'README.md': '# app\n', 'deploy/settings.env': ENCODINGS[4]![1] });
  const cleanTree = tree({ 'README.md': '# app\n', 'src/a.ts': 'export const a = 1;\n' });
  const asResult = (bytes: Buffer) => ({
    content_base64: bytes.toString('base64'),
    content_type: 'application/zip',
  });

  it.each([
    ['zip', zip('app', secretTree)],
    ['tar.gz', tarGz('app', secretTree, '2026-01-01T00:00:00Z')],
    ['tar', gunzip(tarGz('app', secretTree, '2026-01-01T00:00:00Z'))],
    ['zip inside a zip', zip('outer', tree({ 'inner.zip': zip('app', secretTree) }))],
    ['gzip of one file', gzipSync(ENCODINGS[0]![1])],
  ])('%s with a secret member is withheld and names it', async (_, bytes) => {
    for (const mode of ['off', 'mask', 'block'] as const) {
      const r = await scrubResultAsync(asResult(bytes), ctx(mode));
      expect(r.blocked?.reason).toMatch(/secrets in member/);
      expect(r.blocked?.kinds).toContain('configured-secret');
      if (mode !== 'off') expect(r.blocked?.kinds).toContain('github-token');
    }
  });

  it('a look for archives that threw leaves nothing behind for the next result (its stacks are reused)', async () => {
    let visits = 0;
    const watched = {
      get content_base64(): undefined {
        visits++;
        return undefined;
      },
    };
    const throwing = {
      first: { watched },
      get broken(): unknown {
        throw new Error('unreadable value');
      },
    };
    await expect(scrubResultAsync(throwing, ctx('block'))).rejects.toThrow('unreadable value');
    expect(visits).toBe(0);
    const plain = { note: 'nothing to see' };
    const r = await scrubResultAsync(plain, ctx('block'));
    expect(visits).toBe(0); // what the walk that threw had still to visit is not visited now
    expect(r.blocked).toBeNull();
    expect(r.value).toEqual(plain);
    // and the next archive is still found where it sits
    const nested = await scrubResultAsync(
      { list: [{ entry: asResult(zip('app', secretTree)) }] },
      ctx('mask'),
    );
    expect(nested.blocked?.reason).toMatch(/secrets in member/);
  });

  it('a clean archive comes back unchanged', async () => {
    const raw = zip('app', cleanTree).toString('base64');
    const r = await scrubResultAsync({ content_base64: raw }, ctx('block'));
    expect(r.blocked).toBeNull();
    expect((r.value as { content_base64: string }).content_base64).toBe(raw);
  });

  it('a zip bomb stops at the budget and is withheld', async () => {
    const bomb = zip('bomb', tree({ 'zeros.bin': Buffer.alloc(64 * 1024 * 1024) }));
    expect(bomb.length).toBeLessThan(256 * 1024);
    const r = await scrubResultAsync(asResult(bomb), ctx('mask'));
    expect(r.blocked?.reason).toContain('scan budget');
  });

  it('too many members, an encrypted member, an unknown method and a git bundle are withheld', async () => {
    const many = zip(
      'm',
      tree(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}.txt`, `file ${i}\n`]))),
    );
    const policy = { mode: 'scan' as const, maxBytes: 1 << 20, maxMembers: 10 };
    expect(
      (await scrubResultAsync(asResult(many), ctx('mask', { containers: policy }))).blocked?.reason,
    ).toContain('scan budget');
    const encrypted = zip('e', cleanTree);
    encrypted.writeUInt16LE(1, centralDirectory(encrypted) + 8);
    expect((await scrubResultAsync(asResult(encrypted), ctx('mask'))).blocked?.reason).toContain('encrypted');
    const bzip = zip('b', cleanTree);
    bzip.writeUInt16LE(12, centralDirectory(bzip) + 10);
    expect((await scrubResultAsync(asResult(bzip), ctx('mask'))).blocked?.reason).toContain('method 12');
    const bundle = Buffer.concat([
      Buffer.from('# v2 git bundle\nabc HEAD\n\nPACK'),
      deflateRawSync(Buffer.from(TEXT)),
    ]);
    expect((await scrubResultAsync(asResult(bundle), ctx('mask'))).blocked?.reason).toContain('git bundles');
  });

  it('SECRET_SCAN_ARCHIVES=withhold withholds even a clean archive', async () => {
    const r = await scrubResultAsync(
      asResult(zip('app', cleanTree)),
      ctx('mask', { containers: { mode: 'withhold', maxBytes: 1 << 20, maxMembers: 100 } }),
    );
    expect(r.blocked?.reason).toContain('SECRET_SCAN_ARCHIVES=withhold');
  });
});

function gunzip(b: Buffer): Buffer {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('node:zlib') as typeof import('node:zlib')).gunzipSync(b);
}

function centralDirectory(z: Buffer): number {
  return z.readUInt32LE(z.length - 22 + 16);
}
