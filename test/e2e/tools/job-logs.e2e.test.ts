// Issue 17 point 5 (large text pages by byte range) for Actions job logs, through the whole
// service and the official SDK client: the simulator's acme/widgets "test" job has a 2 MiB log
// that Gitea serves with http.ServeContent (Range honoured). Following `range.next_cursor` from
// the first call must read the whole log, page after page, with the service token and a provider
// key that appear three quarters of the way in masked on the page that holds them.
import { envelope, type McpClient } from '../mcp/helpers/clients';
import type { TestGitea } from '../mcp/helpers/gitea';
import { startSdkStack, type SdkStack } from '../mcp/helpers/sdk-stack';
import { ACTIONS_LOG_BYTES, actionsJobLog } from '../../simulator';

describe('an Actions job log larger than one read, in pages', () => {
  let stack: SdkStack;
  let gitea: TestGitea;
  let client: McpClient;

  beforeAll(async () => {
    stack = await startSdkStack();
    ({ gitea, client } = stack);
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });

  const jobId = (name: string): number => {
    const job = gitea.sim.actionRuns.runs[0]!.jobs.find((j) => j.name === name);
    return job!.id;
  };

  it('reads the whole log by following next_cursor, each page a byte range of it, secrets masked', async () => {
    const log = actionsJobLog(gitea.tokens.admin);
    const text = log.toString('utf8');
    const leakLine = text.split('\n').find((l) => l.includes('Authorization: token'))!;
    const gh = /ghp_[A-Za-z0-9]{36}/.exec(leakLine)![0];
    let result = envelope(
      await client.callTool('downloadActionsRunJobLogs', {
        owner: 'acme',
        repo: 'widgets',
        job_id: jobId('test'),
      }),
    );
    const pages: Array<{ start: number; end: number; data: string }> = [];
    for (let calls = 0; ; calls++) {
      expect(calls).toBeLessThan(60);
      expect(typeof result.data).toBe('string');
      pages.push({ start: result.range.start, end: result.range.end, data: result.data });
      expect(result.range.total).toBe(ACTIONS_LOG_BYTES);
      if (!result.range.next_cursor) break;
      result = envelope(
        await client.callTool('downloadActionsRunJobLogs', { cursor: result.range.next_cursor }),
      );
    }
    // More than one page, read to the end, each page starting where the last one stopped.
    expect(pages.length).toBeGreaterThan(4);
    expect(pages[0]!.start).toBe(0);
    expect(pages.at(-1)!.end).toBe(ACTIONS_LOG_BYTES);
    for (let i = 1; i < pages.length; i++) expect(pages[i]!.start).toBe(pages[i - 1]!.end);
    // Every page is those bytes of the log, except on the page with the leaked line.
    const leakAt = log.indexOf(leakLine);
    for (const p of pages) {
      const bytes = log.subarray(p.start, p.end).toString('utf8');
      if (leakAt >= p.start && leakAt < p.end) {
        expect(p.data).not.toContain(gitea.tokens.admin);
        expect(p.data).not.toContain(gh);
        expect(p.data).toContain('https://gitea.internal/api/v1/version');
      } else expect(p.data).toBe(bytes);
    }
    const all = pages.map((p) => p.data).join('');
    expect(all).not.toContain(gitea.tokens.admin);
    expect(all).not.toContain(gh);
  }, 120_000);

  it('reads one byte range of the log as asked, and a job that has not started has no log', async () => {
    const log = actionsJobLog(gitea.tokens.admin);
    const slice = envelope(
      await client.callTool('downloadActionsRunJobLogs', {
        owner: 'acme',
        repo: 'widgets',
        job_id: jobId('test'),
        byte_range: '1000-1099',
      }),
    );
    expect(slice.status).toBe(206);
    expect(slice.data).toBe(log.subarray(1000, 1100).toString('utf8'));
    const waiting = await client.callTool('downloadActionsRunJobLogs', {
      owner: 'acme',
      repo: 'widgets',
      job_id: jobId('deploy'),
    });
    expect(waiting.isError).toBe(true);
    expect(envelope(waiting).error.kind).toBe('not_found');
  });
});
