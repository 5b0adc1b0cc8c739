// Runs `prisma generate` offline. The Prisma CLI tries to download its native schema
// engine before generating unless PRISMA_SCHEMA_ENGINE_BINARY names an existing file;
// generate never executes that engine, so any existing file (this script) will do.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// A production install (`npm ci --omit=dev`, the container image) has no Prisma CLI: the client
// was generated and compiled into dist/ by the build, so there is nothing to do.
if (!existsSync(new URL('../node_modules/prisma/build/index.js', import.meta.url))) {
  process.stdout.write('prisma CLI not installed (production install): the built client in dist/ is used\n');
  process.exit(0);
}

const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY || !existsSync(env.PRISMA_SCHEMA_ENGINE_BINARY)) {
  env.PRISMA_SCHEMA_ENGINE_BINARY = fileURLToPath(import.meta.url);
}
const result = spawnSync(process.execPath, ['node_modules/prisma/build/index.js', 'generate'], {
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
});
if (result.status !== 0) {
  process.stdout.write(result.stdout ?? '');
  process.exit(result.status ?? 1);
}
