// A fresh embedded data directory without PGlite's initdb in the service process. initdb inside
// the process costs about 700 MB of resident memory at its peak and keeps some 400 MB after it
// (its WebAssembly heap and the bootstrap's buffers stay mapped), against about 150 MB for opening
// an existing directory. So a new DATA_DIR is filled from a template data directory made at build
// time by the same PGlite version (`npm run build` writes dist/pglite/); without one, initdb runs
// in a short-lived child process whose memory goes back to the system when it exits.
// The template also carries the committed migrations, applied by the service's own migrator and
// checkpointed, so a first start neither replays WAL nor runs the schema's DDL in WebAssembly
// (together about half a second of CPU at a first start); migrations newer than the build's are applied at start as usual.
// The template is slim (TEMPLATE_FORMAT): only the service's database, without the template0 and
// template1 databases (nothing here runs CREATE DATABASE) and without the free-space and
// visibility-map forks, which PostgreSQL treats as empty when absent and recreates on demand.
// That is 400 files instead of 1,090, and creating files is most of a first start's cost of the
// template: 1.7 s of CPU for 1,090 files against 0.3 s (the bench machine's ext4 spends about
// 1.4 ms of kernel time per new inode).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { migrate } from './migrator';
import { pgliteConnection } from './sql-connection';

/** initdb writes PG_VERSION last-but-one; its presence marks a data directory PostgreSQL can open. */
const MARKER = 'PG_VERSION';

/** What the template holds; part of the build cache's key (scripts/pglite-template.mjs). */
export const TEMPLATE_FORMAT = 'slim-1: service database only, no fsm/vm forks';

/** Relation forks PostgreSQL recreates when missing: free-space map and visibility map. */
const OPTIONAL_FORK = /\/\d+(?:\.\d+)?_(?:fsm|vm)$/;

export function pgliteVersion(): string {
  // The package's exports do not include package.json; it sits above dist/.
  const pkg = join(dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
  return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
}

/** The template for the installed PGlite, in dist/pglite (from dist/src/... or from src/...). */
export function pgliteTemplatePath(version = pgliteVersion()): string | null {
  const name = `pgdata-${version}.tar.gz`;
  const candidates = [
    resolve(__dirname, '../../../pglite', name),
    resolve(__dirname, '../../../dist/pglite', name),
  ];
  return candidates.find((file) => existsSync(file)) ?? null;
}

export function isPgliteDataDir(dir: string): boolean {
  return existsSync(join(dir, MARKER));
}

export type PreparedBy = 'existing' | 'template' | 'initdb-process';

/** Makes `dir` an initialised PGlite data directory unless it already is one. */
export async function preparePgliteDataDir(
  dir: string,
  options: { template?: string | null } = {},
): Promise<PreparedBy> {
  if (isPgliteDataDir(dir)) return 'existing';
  mkdirSync(dir, { recursive: true });
  const template = options.template === undefined ? pgliteTemplatePath() : options.template;
  if (template) {
    // Extracted next to the target and renamed, so a crash half-way never leaves a directory
    // that looks initialised.
    const staging = `${dir}.init-${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    extractTar(gunzipSync(readFileSync(template)), staging);
    if (isPgliteDataDir(staging)) {
      rmSync(dir, { recursive: true, force: true });
      renameSync(staging, dir);
      return 'template';
    }
    rmSync(staging, { recursive: true, force: true });
  }
  await initdbInChildProcess(dir);
  return 'initdb-process';
}

/** Runs PGlite's initdb on `dir` in a separate Node process (open, then close). */
export function initdbInChildProcess(dir: string): Promise<void> {
  const pglite = require.resolve('@electric-sql/pglite');
  const script =
    'const { PGlite } = require(process.argv[1]);' +
    'PGlite.create(process.argv[2]).then((db) => db.close()).then(() => process.exit(0),' +
    ' (e) => { process.stderr.write(String(e && e.stack || e)); process.exit(1); });';
  return new Promise((resolveDone, reject) => {
    const child = spawn(process.execPath, ['-e', script, pglite, dir], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString('utf8');
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0 && isPgliteDataDir(dir)) resolveDone();
      else reject(new Error(`PGlite initdb for ${dir} failed (exit ${code}): ${stderr.slice(0, 500)}`));
    });
  });
}

/**
 * Extracts a ustar archive of regular files and directories (what PGlite's dumpDataDir writes)
 * below `dir`. Entry names are confined to `dir`: absolute names are taken as relative, `..`
 * and links are refused.
 */
export function extractTar(archive: Buffer, dir: string): void {
  const root = resolve(dir);
  mkdirSync(root, { recursive: true });
  for (const entry of tarEntries(archive)) {
    const { name, type } = entry;
    const target = resolve(root, `.${sep}${name.replace(/^\/+/, '')}`);
    if (target !== root && !target.startsWith(root + sep)) throw new Error(`tar: ${name} leaves ${dir}`);
    if (type === '5') mkdirSync(target, { recursive: true });
    else if (type === '0' || type === '\0') {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, archive.subarray(entry.dataStart, entry.dataStart + entry.size), { mode: 0o600 });
    } else throw new Error(`tar: unsupported entry type ${JSON.stringify(type)} for ${name}`);
  }
}

type TarEntry = { name: string; type: string; size: number; offset: number; dataStart: number; end: number };

/** The entries of a ustar archive, up to its end-of-archive block. */
function* tarEntries(archive: Buffer): Generator<TarEntry> {
  let offset = 0;
  while (offset + 512 <= archive.length) {
    const header = archive.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const field = (start: number, length: number) =>
      header
        .subarray(start, start + length)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const prefix = field(345, 155);
    const name = (prefix ? `${prefix}/` : '') + field(0, 100);
    const size = parseInt(field(124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 0);
    if (!Number.isFinite(size) || size < 0) throw new Error(`tar: bad size for ${name}`);
    const dataStart = offset + 512;
    const end = dataStart + Math.ceil(size / 512) * 512;
    yield { name, type, size, offset, dataStart, end };
    offset = end;
  }
}

/** The archive without the optional relation forks (free-space and visibility maps). */
export function withoutOptionalForks(archive: Buffer): Buffer {
  const kept: Buffer[] = [];
  for (const entry of tarEntries(archive))
    if (!OPTIONAL_FORK.test(entry.name)) kept.push(archive.subarray(entry.offset, entry.end));
  kept.push(Buffer.alloc(1024)); // end of archive
  return Buffer.concat(kept);
}

/**
 * Build step: an initialised data directory of the installed PGlite with the committed
 * migrations applied and checkpointed, as dist/pglite/pgdata-<v>.tar.gz.
 */
export async function writePgliteTemplate(outDir: string, migrationsDir?: string): Promise<string> {
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create();
  try {
    await migrate(pgliteConnection(db), migrationsDir ? { migrationsDir } : {});
    // Only the service's database (PGlite opens "postgres"): each database is some 300 files.
    await db.exec("UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')");
    await db.exec('DROP DATABASE template0');
    await db.exec('DROP DATABASE template1');
    // Everything on disk and a checkpoint at the end of the WAL: nothing to replay at first open.
    await db.exec('CHECKPOINT');
    const dump = await db.dumpDataDir('none');
    const tar = withoutOptionalForks(Buffer.from(await dump.arrayBuffer()));
    const check = `${outDir}.check-${process.pid}`;
    extractTar(tar, check); // the archive must be one this reader takes back
    const ok = isPgliteDataDir(check);
    rmSync(check, { recursive: true, force: true });
    if (!ok) throw new Error('PGlite data directory dump has no PG_VERSION');
    mkdirSync(outDir, { recursive: true });
    const file = join(outDir, `pgdata-${pgliteVersion()}.tar.gz`);
    writeFileSync(file, gzipSync(tar, { level: 9 }));
    return file;
  } finally {
    await db.close();
  }
}
