// Issue 12, bounded work: one repoGetRawFile of the simulator's 30 MiB log (acme/huge) through the
// whole service, while /healthz is asked again and again. The call must answer with the start of
// the file and say what was cut and how to read on (byte_range); the next slice must come back
// through the same tool; /healthz must answer all along. No timing is asserted here: the p99 of
// /healthz during such load is a bench figure (npm run bench, "secrets" rows).
import { envelope, type McpClient } from '../mcp/helpers/clients';
import type { McpApp } from '../mcp/helpers/mcp-app';
import { startSdkStack, type SdkStack } from '../mcp/helpers/sdk-stack';
import { HUGE_FILE_BYTES } from '../../simulator';

describe('a 30 MiB file while /healthz answers', () => {
  let stack: SdkStack;
  let app: McpApp;
  let client: McpClient;

  beforeAll(async () => {
    stack = await startSdkStack();
    ({ app, client } = stack);
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('returns the start of the file with body_cut, the next slice through byte_range, and /healthz answers meanwhile', async () => {
    let calling = true;
    const health: number[] = [];
    const poll = (async () => {
      while (calling) {
        const res = await fetch(`${app.base}/healthz`);
        health.push(res.status);
        await res.arrayBuffer();
      }
    })();
    const result = await client.callTool('repoGetRawFile', {
      owner: 'acme',
      repo: 'huge',
      filepath: 'big.log',
    });
    calling = false;
    await poll;

    expect(result.isError).toBeFalsy();
    const env = envelope(result);
    const limit = 4 * 100_000; // MAX_TEXT_BODY_BYTES default: 4 x MAX_TOOL_RESPONSE_CHARS
    expect(env.body_cut).toMatchObject({ received_bytes: limit, total_bytes: HUGE_FILE_BYTES });
    expect(env.body_cut.hint).toContain(`byte_range: "${limit}-${2 * limit - 1}"`);
    expect(env.data).toMatch(/^2026-11-30T10:00:00Z INFO worker processed job/);
    expect(health.length).toBeGreaterThan(0);
    expect(health.every((s) => s === 200)).toBe(true);

    const next = envelope(
      await client.callTool('repoGetRawFile', {
        owner: 'acme',
        repo: 'huge',
        filepath: 'big.log',
        byte_range: `${limit}-${limit + 99}`,
      }),
    );
    expect(next.status).toBe(206);
    expect(next.data).toHaveLength(100);
    expect(next.body_cut).toBeUndefined();
    const line = '2026-11-30T10:00:00Z INFO worker processed job in 12 ms, queue depth 3\n';
    expect(next.data).toBe(line.repeat(Math.ceil((limit + 200) / line.length)).slice(limit, limit + 100));
  }, 120_000);
});
