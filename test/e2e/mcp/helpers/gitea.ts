// The Gitea the MCP and audit e2e tests talk to: always the project's simulator (test/simulator),
// so a broken simulator fails these tests instead of being papered over. Seeded users: admin (a
// site admin, so sudo works), alice, bob.
import { startGiteaSimulator, type GiteaSimulator } from '../../../simulator';

export type TestGitea = {
  url: string;
  tokens: { admin: string; alice: string; bob: string };
  passwords: Record<string, string>;
  sim: GiteaSimulator;
  close(): Promise<void>;
};

export async function startGitea(): Promise<TestGitea> {
  const sim = await startGiteaSimulator({ host: '127.0.0.1', port: 0, seed: 'test' });
  return { url: sim.url, tokens: sim.tokens, passwords: sim.passwords, sim, close: () => sim.close() };
}
