// What the container image runs, tested without Docker (images cannot be built here): a clean
// clone of HEAD, `npm ci --omit=dev` in it, the image's layout assembled from it (production
// node_modules, dist/ from the build, package.json, prisma/migrations, the bundled spec),
// made read-only and started as an unprivileged user (uid 10001, as in the Dockerfile) with only
// DATA_DIR writable: the offline migration command, then the service against the Gitea
// simulator, probed with the Dockerfile's own HEALTHCHECK command, /readyz, /metrics on the
// metrics port and an MCP initialize + tools/list; then SIGTERM must end it cleanly.
//
//   node scripts/image-check.mjs [--node /path/to/node]     (needs `npm run build` first)
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const nodeArg = process.argv.indexOf('--node');
const NODE = nodeArg > 0 ? process.argv[nodeArg + 1] : process.execPath;
const UID = 10001;
const asRoot = process.getuid?.() === 0;
const started = Date.now();
const step = (message) => process.stdout.write(`[image-check +${((Date.now() - started) / 1000).toFixed(1)}s] ${message}\n`);
const fail = (message) => {
  process.stderr.write(`image-check FAILED: ${message}\n`);
  process.exitCode = 1;
  throw new Error(message);
};

for (const built of ['dist/src/main.js', 'dist/src/cli/migrate.js', 'dist/test/simulator/index.js']) {
  if (!existsSync(join(ROOT, built))) fail(`${built} is missing: run npm run build first`);
}

const work = mkdtempSync(join(tmpdir(), 'aegis-image-'));
chmodSync(work, 0o755);
const clone = join(work, 'clone');
const app = join(work, 'app');
const data = join(work, 'data');
const children = new Set();

function listFiles(dir) {
  const out = [];
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.push(`${relative(dir, path)}:${statSync(path).size}`);
    }
  };
  walk(dir);
  return out.sort();
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function run(command, args, options) {
  return execFileSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', ...options });
}

/** Spawns as the image's user (when this runs as root), with the image's working directory. */
function spawnAsImageUser(args, env) {
  const child = spawn(NODE, args, {
    cwd: app,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(asRoot ? { uid: UID, gid: UID } : {}),
  });
  children.add(child);
  child.output = '';
  child.stdout.on('data', (chunk) => (child.output += chunk));
  child.stderr.on('data', (chunk) => (child.output += chunk));
  child.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  child.exited.then(() => children.delete(child));
  return child;
}

async function waitFor(description, probe, child, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && child.exitCode !== null) fail(`${description}: the service exited (${child.exitCode})\n${child.output}`);
    try {
      if (await probe()) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) fail(`${description}: not within ${timeoutMs} ms\n${child?.output ?? ''}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Reads a JSON-RPC answer from a JSON or an SSE body. */
async function rpcResult(response) {
  const text = await response.text();
  const json = (response.headers.get('content-type') ?? '').includes('text/event-stream')
    ? text.split('\n').filter((line) => line.startsWith('data:')).map((line) => JSON.parse(line.slice(5))).pop()
    : JSON.parse(text);
  if (!json || json.error) fail(`JSON-RPC error: ${text.slice(0, 500)}`);
  return json.result;
}

let simulator;
try {
  step(`clean clone of HEAD into ${clone}`);
  run('git', ['clone', '--quiet', '--no-hardlinks', ROOT, clone]);

  step(`npm ci --omit=dev (node ${run(NODE, ['--version']).trim()})`);
  const npmEnv = { ...process.env, PATH: `${dirname(NODE)}:${process.env.PATH}`, npm_config_update_notifier: 'false', ONNXRUNTIME_NODE_INSTALL: 'skip' };
  run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], { cwd: clone, env: npmEnv });
  // (typescript and the prisma CLI are peer dependencies of @prisma/client, so they stay.)
  for (const devOnly of ['jest', 'ts-jest', '@nestjs/cli', 'eslint', 'supertest']) {
    if (existsSync(join(clone, 'node_modules', devOnly))) fail(`a development dependency was installed: ${devOnly}`);
  }

  step('assembling the image layout (as the Dockerfile copies it)');
  mkdirSync(join(app, 'prisma'), { recursive: true });
  mkdirSync(join(app, 'gitea'), { recursive: true });
  renameSync(join(clone, 'node_modules'), join(app, 'node_modules'));
  cpSync(join(ROOT, 'dist'), join(app, 'dist'), { recursive: true });
  // The console, built in the image's build stage (here: by the root npm ci's postinstall).
  if (!existsSync(join(ROOT, 'web/dist/index.html'))) fail('web/dist is missing: run npm run console:build first');
  cpSync(join(ROOT, 'web/dist'), join(app, 'web/dist'), { recursive: true });
  cpSync(join(clone, 'package.json'), join(app, 'package.json'));
  cpSync(join(clone, 'prisma/migrations'), join(app, 'prisma/migrations'), { recursive: true });
  cpSync(join(clone, 'gitea/swagger.v1.json'), join(app, 'gitea/swagger.v1.json'));
  cpSync(join(clone, 'models'), join(app, 'models'), { recursive: true });
  // Read-only for everyone (the service user owns nothing in /app); only DATA_DIR is writable.
  run('chmod', ['-R', 'a-w', app]);
  mkdirSync(data, { mode: 0o700 });
  if (asRoot) chownSync(data, UID, UID);
  const before = listFiles(app);

  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const healthcheck = JSON.parse(/^HEALTHCHECK[^\n]*\\\n\s*CMD (\[.*\])$/m.exec(dockerfile)?.[1] ?? 'null');
  if (!healthcheck || healthcheck[0] !== 'node') fail('no HEALTHCHECK CMD ["node", ...] in the Dockerfile');

  const require = createRequire(import.meta.url);
  const { startGiteaSimulator } = require(join(ROOT, 'dist/test/simulator/index.js'));
  simulator = await startGiteaSimulator({ host: '127.0.0.1', port: 0, seed: 'demo' });
  const [port, metricsPort] = [await freePort(), await freePort()];
  const bearer = randomBytes(32).toString('base64url');
  const env = {
    PATH: `${dirname(NODE)}:/usr/bin:/bin`,
    HOME: '/nonexistent',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
    DATA_DIR: data,
    GITEA_URL: simulator.url,
    GITEA_TOKEN: simulator.tokens.alice,
    MCP_BEARER_TOKEN: bearer,
  };

  // Discovery search's sentence encoder, from the image layout: its model files, the build-time
  // vectors and onnxruntime-node's native binary, as the service user on the read-only app.
  step('sentence encoder: all-MiniLM-L6-v2 on onnxruntime-node, from the image layout');
  const encoderScript = `const { MiniLmEncoder, toolVectorsPath } = require('./dist/src/infra/embeddings/minilm-encoder');
    if (!toolVectorsPath()) throw new Error('no build-time vectors');
    new MiniLmEncoder().embed(['star a repository']).then(([v]) => console.log('dims', v.length), (e) => { console.error(e); process.exit(1); });`;
  const encoder = spawnAsImageUser(['-e', encoderScript], env);
  const encoded = await encoder.exited;
  if (encoded.code !== 0 || !/dims 384/.test(encoder.output)) fail(`sentence encoder: ${JSON.stringify(encoded)}\n${encoder.output}`);

  step('offline migrations: node dist/src/cli/migrate.js');
  const migrate = spawnAsImageUser(['dist/src/cli/migrate.js'], env);
  const migrated = await migrate.exited;
  if (migrated.code !== 0 || !/migration\(s\) applied/.test(migrate.output)) fail(`migrate: ${JSON.stringify(migrated)}\n${migrate.output}`);
  step(migrate.output.trim().split('\n').pop());

  step(`service as uid ${asRoot ? UID : process.getuid?.()} on a read-only app directory`);
  // What the image runs: the Dockerfile's last CMD (its Node flags, then the entry point).
  const cmd = JSON.parse([...dockerfile.matchAll(/^CMD (\[.*\])$/gm)].pop()?.[1] ?? 'null');
  if (!cmd || cmd[0] !== 'node' || cmd.at(-1) !== 'dist/src/main.js') fail('no CMD ["node", ..., "dist/src/main.js"] in the Dockerfile');
  const service = spawnAsImageUser(cmd.slice(1), env);
  const base = `http://127.0.0.1:${port}`;
  await waitFor('the Dockerfile HEALTHCHECK', async () => {
    const check = spawnAsImageUser(healthcheck.slice(1), env);
    return (await check.exited).code === 0;
  }, service);
  await waitFor('/readyz 200', async () => (await fetch(`${base}/readyz`)).status === 200, service);
  const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
  if (metrics.status !== 200 || !(await metrics.text()).includes('process_cpu_user_seconds_total')) fail('/metrics on METRICS_PORT');
  if ((await fetch(`${base}/metrics`)).status !== 404) fail('/metrics must not answer on the MCP port');
  const consolePage = await fetch(`${base}/admin/`);
  if (consolePage.status !== 200 || !(await consolePage.text()).includes('/admin/assets/')) fail(`/admin/ answered ${consolePage.status}, not the console`);
  step('the console is served under /admin');

  const headers = { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const init = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'image-check', version: '1' } } }),
  });
  if (init.status !== 200) fail(`initialize answered ${init.status}: ${await init.text()}`);
  const session = init.headers.get('mcp-session-id');
  await rpcResult(init);
  const sessionHeaders = { ...headers, 'mcp-protocol-version': '2025-06-18', ...(session ? { 'mcp-session-id': session } : {}) };
  await fetch(`${base}/mcp`, { method: 'POST', headers: sessionHeaders, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  const list = await fetch(`${base}/mcp`, { method: 'POST', headers: sessionHeaders, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
  const tools = (await rpcResult(list)).tools;
  if (!Array.isArray(tools) || tools.length < 400) fail(`tools/list returned ${tools?.length} tools`);
  step(`MCP: initialize + tools/list (${tools.length} tools)`);

  service.kill('SIGTERM');
  const stopped = await service.exited;
  // Nest closes everything, then re-raises the signal: a clean stop ends by SIGTERM or with 0.
  if (stopped.code !== 0 && stopped.signal !== 'SIGTERM') fail(`SIGTERM: exit ${JSON.stringify(stopped)}\n${service.output}`);
  if (!/shutting down/.test(service.output)) fail('no "shutting down" log line after SIGTERM');
  const after = listFiles(app);
  if (after.join('\n') !== before.join('\n')) fail('the service changed its own directory');
  if (!existsSync(join(data, 'pglite'))) fail('the embedded database was not created under DATA_DIR');
  step('passed: read-only app, unprivileged user, data only under DATA_DIR, clean SIGTERM');
} finally {
  for (const child of children) child.kill('SIGKILL');
  if (simulator) await simulator.close();
  try {
    run('chmod', ['-R', 'u+w', work]);
    rmSync(work, { recursive: true, force: true });
  } catch {
    // best effort
  }
}
