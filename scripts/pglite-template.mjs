#!/usr/bin/env node
// Build step (after `nest build`, which empties dist/): writes dist/pglite/pgdata-<PGlite
// version>.tar.gz, an initialised data directory that a new embedded DATA_DIR is filled from, so
// the service never runs initdb in its own process (src/infra/database/pglite-data-dir.ts says
// why). It carries the committed migrations, so it is made once per PGlite version and set of
// migrations and kept in node_modules/.cache between builds (keyed by those and the template's format).
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const compiled = join(root, 'dist', 'src', 'infra', 'database', 'pglite-data-dir.js');
if (!existsSync(compiled)) {
  process.stderr.write(`pglite-template: ${compiled} missing (run nest build first)\n`);
  process.exit(1);
}
const { pgliteVersion, writePgliteTemplate, TEMPLATE_FORMAT } = createRequire(import.meta.url)(compiled);
const name = `pgdata-${pgliteVersion()}.tar.gz`;
const migrationsDir = join(root, 'prisma', 'migrations');
const migrations = createHash('sha256').update(`${TEMPLATE_FORMAT}\n`);
for (const entry of readdirSync(migrationsDir, { withFileTypes: true }).filter((e) => e.isDirectory()).sort((a, b) => (a.name < b.name ? -1 : 1))) {
  const file = join(migrationsDir, entry.name, 'migration.sql');
  if (existsSync(file)) migrations.update(`${entry.name}\n`).update(readFileSync(file));
}
const cacheDir = join(root, 'node_modules', '.cache', 'aegis-pglite', migrations.digest('hex').slice(0, 16));
const distDir = join(root, 'dist', 'pglite');
let cached = join(cacheDir, name);
if (!existsSync(cached)) {
  try {
    cached = await writePgliteTemplate(cacheDir, migrationsDir);
  } catch (error) {
    // A read-only node_modules: make it straight into dist/.
    process.stderr.write(`pglite-template: cache not writable (${error.message}); writing into dist/\n`);
    cached = await writePgliteTemplate(distDir, migrationsDir);
  }
}
mkdirSync(distDir, { recursive: true });
if (dirname(cached) !== distDir) copyFileSync(cached, join(distDir, basename(cached)));
process.stdout.write(`pglite-template: dist/pglite/${name}\n`);
