// Issue 12's leaks, end to end: the ToolService with the real undici transport and secrets
// scrubber against the Gitea simulator's acme/leaks repository, which holds one settings file
// (the service's GITEA_TOKEN and a GitHub token) in Latin-1, with a trailing NUL, in UTF-16LE/BE
// with a BOM and in UTF-16LE without one. Each must come back without either secret through the
// contents API (base64) and the raw API, and the repository archives (zip, tar.gz) that hold
// them must be withheld.
import type { AppConfig } from '../../../src/config/app-config';
import type { AuditEntry } from '../../../src/core/ports';
import { loadBundledSpec } from '../../../src/infra/gitea/spec-source';
import { buildCatalogue } from '../../../src/core/catalogue/tool-catalogue';
import { leakFileText, leakFiles } from '../../simulator';
import { simulatedToolService, useSimulatedGitea } from '../tools/simulated-tool-service';

const catalogue = buildCatalogue(loadBundledSpec(), { maxBinaryBytes: 65536 });
type Mode = 'off' | 'mask' | 'block';

/** Every way the caller could read the secrets back: the text, and any base64 decoded as each encoding. */
function readable(text: string): string {
  const parts = [text];
  for (const m of text.matchAll(/"(?:content|content_base64)":"([A-Za-z0-9+/=]+)"/g)) {
    const bytes = Buffer.from(m[1]!, 'base64');
    const be = Buffer.from(bytes);
    for (let i = 0; i + 1 < be.length; i += 2) [be[i], be[i + 1]] = [bytes[i + 1]!, bytes[i]!];
    parts.push(
      bytes.toString('utf8'),
      bytes.toString('latin1'),
      bytes.toString('utf16le'),
      be.toString('utf16le'),
    );
  }
  return parts.join('\n');
}

function decodeAs(bytes: Buffer, file: string): string {
  if (file.startsWith('latin1')) return bytes.toString('latin1');
  if (file.startsWith('utf16be')) return Buffer.from(bytes.subarray(2)).swap16().toString('utf16le');
  if (file === 'utf16le.env') return bytes.subarray(2).toString('utf16le');
  if (file.startsWith('utf16le')) return bytes.toString('utf16le');
  return bytes.toString('utf8');
}

describe('secrets in every encoding and in archives (issue 12)', () => {
  const gitea = useSimulatedGitea();
  let serviceToken: string;
  let githubToken: string;
  const audits: AuditEntry[] = [];

  const call = async (
    name: string,
    args: unknown,
    mode: Mode = 'mask',
    secrets: Partial<AppConfig['secrets']> = {},
  ) => {
    const service = simulatedToolService({
      catalogue,
      transport: gitea.transport,
      audits,
      tools: { maxBinaryBytes: 65536 },
      mode,
      exactSecrets: [serviceToken],
      secrets,
    });
    const r = await service.callTool(name, args, gitea.alice);
    return {
      isError: r.isError,
      text: r.content[0]!.text,
      json: JSON.parse(r.content[0]!.text),
      audit: audits.at(-1)!,
    };
  };

  beforeAll(() => {
    serviceToken = gitea.sim.tokens.admin;
    githubToken = /GITHUB_TOKEN=(\S+)/.exec(leakFileText(serviceToken))![1]!;
  });

  const files = [...leakFiles('x').keys()];

  it.each(files)(
    'repoGetContents of %s (base64): neither secret comes back, the file keeps its encoding',
    async (file) => {
      const r = await call('repoGetContents', { owner: 'acme', repo: 'leaks', filepath: file });
      expect(r.isError).toBe(false);
      const seen = readable(r.text);
      expect(seen).not.toContain(serviceToken);
      expect(seen).not.toContain(githubToken);
      // Rewritten in place: the same text with the secrets replaced, in the same encoding and BOM.
      const original = leakFiles(serviceToken).get(file)!;
      const bytes = Buffer.from(r.json.data.content, 'base64');
      expect(bytes.subarray(0, 2)).toEqual(original.subarray(0, 2));
      const expected = leakFileText(serviceToken)
        .replace(serviceToken, '[REDACTED]')
        .replace(githubToken, `[[aegis-masked:github-token:gh${'p_'}...:${githubToken.length}]]`);
      expect(decodeAs(bytes, file)).toBe(file === 'nul.env' ? `${expected}\0` : expected);
      expect(r.audit.redactions).toBeGreaterThanOrEqual(1);
      expect(r.audit.masks).toBeGreaterThanOrEqual(1);
    },
  );

  it.each(files)('repoGetRawFile of %s: neither secret comes back', async (file) => {
    const r = await call('repoGetRawFile', { owner: 'acme', repo: 'leaks', filepath: file });
    expect(r.isError).toBe(false);
    const seen = readable(r.text);
    expect(seen).not.toContain(serviceToken);
    expect(seen).not.toContain(githubToken);
    expect(seen).toContain('GITEA_TOKEN=[REDACTED]');
    expect(r.audit.redactions).toBeGreaterThanOrEqual(1);
    expect(r.audit.masks).toBeGreaterThanOrEqual(1);
  });

  it('a Latin-1 raw file is decoded as Latin-1, not mangled', async () => {
    const r = await call('repoGetRawFile', { owner: 'acme', repo: 'leaks', filepath: 'latin1.env' });
    expect(r.json.data).toContain('# Configuración de producción');
  });

  it.each(['zip', 'tar.gz'])(
    'repoGetArchive %s holding the files is withheld, naming the member',
    async (format) => {
      for (const mode of ['mask', 'block', 'off'] as const) {
        const r = await call(
          'repoGetArchive',
          { owner: 'acme', repo: 'leaks', archive: `main.${format}` },
          mode,
        );
        expect(r.isError).toBe(true);
        expect(r.json.error.kind).toBe('secret_blocked');
        expect(r.json.error.message).toMatch(/member leaks\/[a-z0-9-]+\.env/);
        expect(r.json.error.message).toContain('configured-secret');
        expect(r.text).not.toContain(serviceToken);
        expect(r.text).not.toContain(githubToken);
        expect(r.audit).toMatchObject({ blocked: true, kind: 'secret_blocked' });
        expect(r.audit.redactions).toBeGreaterThanOrEqual(1);
      }
    },
  );

  it('a clean archive is returned as Gitea sent it; SECRET_SCAN_ARCHIVES=withhold withholds it', async () => {
    const clean = await call(
      'repoGetArchive',
      { owner: 'bob', repo: 'sandbox', archive: 'main.zip' },
      'block',
    );
    expect(clean.isError).toBe(false);
    const direct = Buffer.from(
      await (
        await fetch(`${gitea.sim.apiUrl}/repos/bob/sandbox/archive/main.zip`, {
          headers: { Authorization: `token ${gitea.sim.tokens.alice}` },
        })
      ).arrayBuffer(),
    );
    expect(Buffer.from(clean.json.data.content_base64, 'base64')).toEqual(direct);
    const withheld = await call(
      'repoGetArchive',
      { owner: 'bob', repo: 'sandbox', archive: 'main.zip' },
      'mask',
      {
        scanArchives: 'withhold',
      },
    );
    expect(withheld.json.error.kind).toBe('secret_blocked');
    expect(withheld.json.error.message).toContain('SECRET_SCAN_ARCHIVES=withhold');
  });

  it('an archive larger than the scan budget is withheld in every mode, never returned unscanned', async () => {
    const r = await call(
      'repoGetArchive',
      { owner: 'bob', repo: 'sandbox', archive: 'main.tar.gz' },
      'mask',
      {
        archiveMaxBytes: 100,
      },
    );
    expect(r.json.error.kind).toBe('secret_blocked');
    expect(r.json.error.message).toContain('scan budget');
  });
});
