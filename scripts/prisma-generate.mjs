// Runs `prisma generate` offline. The Prisma CLI tries to download its native schema
// engine before generating unless PRISMA_SCHEMA_ENGINE_BINARY names an existing file;
// generate never executes that engine, so any existing file (this script) will do.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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
