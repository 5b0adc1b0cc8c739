// The whole service against the simulator, with one official SDK 2.x client speaking 2026-07-28 as
// the service-token caller: what an e2e test of one tool's behaviour starts from.
import { connect, type McpClient } from './clients';
import { startGitea, type TestGitea } from './gitea';
import { BEARER, startMcpApp, testConfig, type McpApp } from './mcp-app';

export type SdkStack = { gitea: TestGitea; app: McpApp; client: McpClient; close(): Promise<void> };

export async function startSdkStack(env: Record<string, string> = {}): Promise<SdkStack> {
  const gitea = await startGitea();
  const app = await startMcpApp(testConfig(gitea.url, gitea.tokens.admin, { LOG_LEVEL: 'warn', ...env }), {
    full: true,
  });
  const client = await connect(app.url, 'sdk2', '2026-07-28', { Authorization: `Bearer ${BEARER}` });
  return {
    gitea,
    app,
    client,
    async close() {
      await client.close();
      await app.close();
      await gitea.close();
    },
  };
}
