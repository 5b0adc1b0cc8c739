// Issue 11 / ADR 0019 end to end: downloadArtifact through the official MCP SDK client against the
// Gitea simulator, which answers it with a redirect as Gitea does: to its own signed raw link, or
// (SERVE_DIRECT storage) to a presigned link on the storage host, another origin. With
// GITEA_OFF_ORIGIN_DOWNLOADS=follow (the default) the bytes come back as binary data, the storage
// host gets no credential, and the signed link appears nowhere in the result; with "refuse" the
// call fails with an error that names the storage origin and the variable, not the link.
import { connect, type McpClient } from '../mcp/helpers/clients';
import { startGitea, type TestGitea } from '../mcp/helpers/gitea';
import { BEARER, startMcpApp, testConfig, type McpApp } from '../mcp/helpers/mcp-app';

jest.setTimeout(120_000);

const ARGS = { owner: 'acme', repo: 'widgets', artifact_id: '1' };

describe('artifact downloads redirected by Gitea (GITEA_OFF_ORIGIN_DOWNLOADS)', () => {
  let gitea: TestGitea;
  let follow: McpApp;
  let refuse: McpApp;
  let following: McpClient;
  let refusing: McpClient;

  beforeAll(async () => {
    gitea = await startGitea();
    [follow, refuse] = await Promise.all([
      startMcpApp(testConfig(gitea.url, gitea.tokens.alice), { startTimeoutMs: 110_000 }),
      startMcpApp(testConfig(gitea.url, gitea.tokens.alice, { GITEA_OFF_ORIGIN_DOWNLOADS: 'refuse' }), {
        startTimeoutMs: 110_000,
      }),
    ]);
    const auth = { authorization: `Bearer ${BEARER}` };
    [following, refusing] = await Promise.all([
      connect(follow.url, 'sdk2', '2026-07-28', auth),
      connect(refuse.url, 'sdk2', '2025-11-25', auth),
    ]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([following?.close(), refusing?.close()]);
    await Promise.all([follow?.close(), refuse?.close()]);
    await gitea?.close();
  });

  const artifact = () => gitea.sim.artifacts.items[0]!;
  const text = (result: { content: Array<{ text?: string }> }) =>
    result.content.map((c) => c.text ?? '').join('');

  it('returns the bytes behind a presigned storage link (another origin), sending it no credential', async () => {
    gitea.sim.artifacts.serveDirect = true;
    const before = gitea.sim.artifacts.storageRequests.length;
    try {
      const result = await following.callTool('downloadArtifact', ARGS);
      expect(result.isError).toBeFalsy();
      const envelope = JSON.parse(text(result));
      expect(envelope.data).toMatchObject({ content_type: 'application/zip', size: artifact().zip.length });
      expect(Buffer.from(envelope.data.content_base64, 'base64').equals(artifact().zip)).toBe(true);
      // The storage host was asked once, with the signed query only: no token, no cookie, no sudo.
      const asked = gitea.sim.artifacts.storageRequests.slice(before);
      expect(asked).toHaveLength(1);
      expect(asked[0]!.path).toContain('X-Amz-Signature=');
      for (const header of ['authorization', 'cookie', 'sudo'])
        expect(asked[0]!.headers[header]).toBeUndefined();
      expect(JSON.stringify(asked[0]!.headers)).not.toContain(gitea.tokens.alice);
      // The link (a bearer credential for an hour) is nowhere in what the agent sees.
      const signature = new URL(asked[0]!.path, 'http://x').searchParams.get('X-Amz-Signature')!;
      expect(text(result)).not.toContain(signature);
      expect(text(result)).not.toContain('X-Amz-');
      expect(text(result)).not.toContain(gitea.sim.artifacts.storageUrl);
    } finally {
      gitea.sim.artifacts.serveDirect = false;
    }
  });

  it("follows Gitea's own signed raw link (same origin) as before", async () => {
    const result = await following.callTool('downloadArtifact', ARGS);
    expect(result.isError).toBeFalsy();
    const envelope = JSON.parse(text(result));
    expect(Buffer.from(envelope.data.content_base64, 'base64').equals(artifact().zip)).toBe(true);
    expect(text(result)).not.toContain('sig=');
  });

  it('with GITEA_OFF_ORIGIN_DOWNLOADS=refuse answers a clear error naming the origin, never the link', async () => {
    gitea.sim.artifacts.serveDirect = true;
    const before = gitea.sim.artifacts.storageRequests.length;
    try {
      const result = await refusing.callTool('downloadArtifact', ARGS);
      expect(result.isError).toBe(true);
      const { error } = JSON.parse(text(result));
      expect(error.message).toContain(`a download at ${gitea.sim.artifacts.storageUrl}`);
      expect(error.message).toContain('GITEA_OFF_ORIGIN_DOWNLOADS=refuse');
      expect(text(result)).not.toContain('X-Amz-');
      // Nothing was fetched from the storage host.
      expect(gitea.sim.artifacts.storageRequests.length).toBe(before);
    } finally {
      gitea.sim.artifacts.serveDirect = false;
    }
    // The same-origin raw link is still followed when off-origin hops are refused.
    const own = await refusing.callTool('downloadArtifact', ARGS);
    expect(own.isError).toBeFalsy();
  });
});
