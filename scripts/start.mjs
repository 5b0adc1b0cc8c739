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

let banner = null;
if (demo) {
  const require = createRequire(import.meta.url);
  const { startGiteaSimulator } = require(simulatorEntry);
  simulator = await startGiteaSimulator({ host: '127.0.0.1', port: 0, seed: 'demo' });
  const bearer = env.MCP_BEARER_TOKEN || randomBytes(24).toString('base64url');
  Object.assign(env, {
    HOST: env.HOST || '127.0.0.1',
    PORT: env.PORT || '8080',
    // A free port unless asked: a second demo must not collide on the metrics port.
    METRICS_PORT: env.METRICS_PORT || '0',
    GITEA_URL: simulator.url,
    GITEA_TOKEN: env.GITEA_TOKEN || simulator.tokens.alice,
    MCP_BEARER_TOKEN: bearer,
    DATA_DIR: env.DATA_DIR || 'memory://',
    // The banner waits for the "listening" line, an info line.
    LOG_LEVEL: ['debug', 'trace'].includes(env.LOG_LEVEL) ? env.LOG_LEVEL : 'info',
  });
  // Printed once the service listens, with the port it really got (PORT=0, or a busy port that
  // made it stop: then there is no banner, only the service's one-line reason).
  banner = ({ url, metricsUrl }) => {
    const mcpUrl = `${url}/mcp`;
    const snippet = {
      mcpServers: { 'gitea-demo': { type: 'http', url: mcpUrl, headers: { Authorization: `Bearer ${bearer}` } } },
    };
    return (
      [
        '',
        'AegisGitea-MCP demo',
        `  Gitea simulator : ${simulator.url} (seeded; the service acts as "alice")`,
        `  MCP endpoint    : ${mcpUrl}`,
        `  Bearer token    : ${bearer}`,
        `  Metrics         : ${metricsUrl}`,
        '  Client config (e.g. .mcp.json):',
        JSON.stringify(snippet, null, 2)
          .split('\n')
          .map((line) => `    ${line}`)
          .join('\n'),
        '  Stop with Ctrl+C.',
        '',
      ].join('\n') + '\n'
    );
  };
}

const child = spawn(process.execPath, [main], { cwd: root, env, stdio: ['inherit', banner ? 'pipe' : 'inherit', 'inherit'] });
if (banner) {
  // Pass the service's log lines through; the "listening" line carries the real URLs.
  let pending = '';
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    pending += chunk.toString('utf8');
    let newline;
    while (banner && (newline = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      try {
        const entry = JSON.parse(line);
        if (entry.msg === 'listening' && entry.component === 'server') {
          process.stdout.write(banner(entry));
          banner = null;
        }
      } catch {
        // not a JSON log line
      }
    }
  });
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', async (code, signal) => {
  if (simulator) await simulator.close();
  process.exit(code ?? (signal ? 1 : 0));
});
