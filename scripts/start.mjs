// `npm start`: build once if dist/ is missing, then run the service on the environment's
// configuration (with nothing set: PGlite under ./.data, in-process queue).
// `npm run demo` (--demo): also start the Gitea simulator with seed data, point the service at
// it with per-user OAuth on (the service's OAuth2 application registered in the simulator), and
// print how to connect an MCP client and whom to sign in as. `npm run migrate` (--migrate): apply pending
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
// The console (web/ -> web/dist, served under /admin): installed and built when missing or older
// than its sources (a no-op otherwise; skipped where web/ is absent, as in the image).
if (!process.argv.includes('--migrate')) {
  const result = spawnSync(process.execPath, [join(root, 'scripts/console-build.mjs')], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

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
  const host = env.HOST || '127.0.0.1';
  const port = env.PORT || '8080';
  const publicUrl = env.PUBLIC_URL || (port !== '0' ? `http://${host}:${port}` : '');
  // Per-user OAuth: the service's OAuth2 application in the simulated Gitea (the Gitea sign-in
  // callback and the MCP authorization server's callback), and a key for the grants at rest.
  const callbacks = (base) => [`${base}/auth/gitea/callback`, `${base}/oauth/gitea/callback`];
  const oauthApp = simulator.oauth.registerApp({
    name: 'AegisGitea-MCP (demo)',
    redirectUris: publicUrl ? callbacks(publicUrl) : [],
    confidential: true,
  });
  Object.assign(env, {
    HOST: host,
    PORT: port,
    // A free port unless asked: a second demo must not collide on the metrics port.
    METRICS_PORT: env.METRICS_PORT || '0',
    ...(publicUrl ? { PUBLIC_URL: publicUrl } : {}),
    GITEA_URL: simulator.url,
    GITEA_TOKEN: env.GITEA_TOKEN || simulator.tokens.alice,
    MCP_BEARER_TOKEN: bearer,
    GITEA_OAUTH_CLIENT_ID: oauthApp.clientId,
    GITEA_OAUTH_CLIENT_SECRET: oauthApp.clientSecret,
    ENCRYPTION_KEY: env.ENCRYPTION_KEY || randomBytes(32).toString('hex'),
    DATA_DIR: env.DATA_DIR || 'memory://',
    // The banner waits for the "listening" line, an info line.
    LOG_LEVEL: ['debug', 'trace'].includes(env.LOG_LEVEL) ? env.LOG_LEVEL : 'info',
  });
  const people = [
    ['admin', 'site admin'],
    ['alice', 'org owner of acme'],
    ['bob', 'plain user'],
  ];
  // Printed once the service listens, with the port it really got (PORT=0, or a busy port that
  // made it stop: then there is no banner, only the service's one-line reason).
  banner = ({ url, metricsUrl }) => {
    const mcpUrl = `${url}/mcp`;
    const base = publicUrl || url;
    // PORT=0: the callbacks are known only now.
    if (!publicUrl) simulator.state.oauthApps.find((a) => a.id === oauthApp.id).redirectUris = callbacks(url);
    const snippet = {
      mcpServers: { 'gitea-demo': { type: 'http', url: mcpUrl, headers: { Authorization: `Bearer ${bearer}` } } },
    };
    return (
      [
        '',
        'AegisGitea-MCP demo',
        `  Gitea simulator : ${simulator.url} (seeded; the service token acts as "alice")`,
        `  MCP endpoint    : ${mcpUrl}`,
        `  Bearer token    : ${bearer}`,
        `  Metrics         : ${metricsUrl}`,
        `  Admin console   : ${base}/admin/ (Sign in with Gitea as one of the people below)`,
        `  OAuth           : on (sign in through the simulated Gitea; try ${base}/auth/gitea/connect)`,
        ...people.map(([login, role]) => `  sign in as ${login} / ${simulator.passwords[login]} (${role})`),
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

// The image's V8 flags (Dockerfile CMD): a 4 MB semi-space (about 20-30 MB less RSS) and the old
// generation's next collection at 1.5x what survived the last one (V8's default grows it up to 4x).
const child = spawn(process.execPath, ['--max-semi-space-size=8', '--heap-growing-percent=50', main], { cwd: root, env, stdio: ['inherit', banner ? 'pipe' : 'inherit', 'inherit'] });
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
