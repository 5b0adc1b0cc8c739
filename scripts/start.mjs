// `npm start`: build once if dist/ is missing, then run the service on the environment's
// configuration (with nothing set: PGlite under ./.data, in-process queue).
// `npm run demo` (--demo): also start the Gitea simulator with seed data, point the service at
// it, and print how to connect an MCP client. `npm run migrate` (--migrate): apply pending
// migrations to the configured database and exit.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const demo = process.argv.includes('--demo');
const main = join(root, 'dist/src/main.js');
const simulatorEntry = join(root, 'dist/test/simulator/index.js');

function build() {
  process.stdout.write('dist/ is missing or incomplete: building (npm run build) ...\n');
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const migrateCli = join(root, 'dist/src/cli/migrate.js');
if (!existsSync(main) || !existsSync(migrateCli) || (demo && !existsSync(simulatorEntry))) build();

if (process.argv.includes('--migrate')) {
  const result = spawnSync(process.execPath, [migrateCli], { cwd: root, stdio: 'inherit' });
  process.exit(result.status ?? 1);
}

const env = { ...process.env };
let simulator = null;

if (demo) {
  const require = createRequire(import.meta.url);
  const { startGiteaSimulator } = require(simulatorEntry);
  simulator = await startGiteaSimulator({ host: '127.0.0.1', port: 0, seed: 'demo' });
  const host = env.HOST || '127.0.0.1';
  const port = env.PORT || '8080';
  const bearer = env.MCP_BEARER_TOKEN || randomBytes(24).toString('base64url');
  Object.assign(env, {
    HOST: host,
    PORT: port,
    GITEA_URL: simulator.url,
    GITEA_TOKEN: env.GITEA_TOKEN || simulator.tokens.alice,
    MCP_BEARER_TOKEN: bearer,
    DATA_DIR: env.DATA_DIR || 'memory://',
  });
  const mcpUrl = `http://${host}:${port}/mcp`;
  const snippet = {
    mcpServers: { 'gitea-demo': { type: 'http', url: mcpUrl, headers: { Authorization: `Bearer ${bearer}` } } },
  };
  process.stdout.write(
    [
      '',
      'AegisGitea-MCP demo',
      `  Gitea simulator : ${simulator.url} (seeded; the service acts as "alice")`,
      `  MCP endpoint    : ${mcpUrl}`,
      `  Bearer token    : ${bearer}`,
      '  Client config (e.g. .mcp.json):',
      JSON.stringify(snippet, null, 2)
        .split('\n')
        .map((line) => `    ${line}`)
        .join('\n'),
      '  Stop with Ctrl+C.',
      '',
    ].join('\n') + '\n',
  );
}

const child = spawn(process.execPath, [main], { cwd: root, env, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', async (code, signal) => {
  if (simulator) await simulator.close();
  process.exit(code ?? (signal ? 1 : 0));
});
