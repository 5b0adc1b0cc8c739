// A new embedded DATA_DIR is initialised outside the service process: from the build's template
// data directory when there is one, else by initdb in a child process; an existing one is opened
// as it is. Either way the database opens, migrates and keeps its rows across a reopen.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { openDatabase } from '../../../src/infra/database/database';
import { defaultMigrationsDir, readMigrations } from '../../../src/infra/database/migrator';
import {
  extractTar,
  isPgliteDataDir,
  preparePgliteDataDir,
  writePgliteTemplate,
} from '../../../src/infra/database/pglite-data-dir';

const scratch = mkdtempSync(join(tmpdir(), 'aegis-pglite-dir-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** One ustar entry (header + data padded to 512). */
function tarEntry(name: string, data: string, type = '0'): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, 100, 'utf8');
  header.write('0000600\0', 100);
  header.write(`${Buffer.byteLength(data).toString(8).padStart(11, '0')}\0`, 124);
  header.write(type, 156);
  header.write('ustar\0', 257);
  const body = Buffer.alloc(Math.ceil(Buffer.byteLength(data) / 512) * 512);
  body.write(data);
  return Buffer.concat([header, body]);
}

describe('embedded data directory preparation', () => {
  it('extracts regular files and directories, and refuses entries that leave the directory', () => {
    const dir = join(scratch, 'tar');
    extractTar(
      Buffer.concat([tarEntry('/base', '', '5'), tarEntry('/base/1', 'x'.repeat(700)), Buffer.alloc(1024)]),
      dir,
    );
    expect(existsSync(join(dir, 'base', '1'))).toBe(true);
    expect(() => extractTar(tarEntry('../escape', 'no'), join(scratch, 'tar2'))).toThrow(/leaves/);
    expect(() => extractTar(tarEntry('/link', '', '2'), join(scratch, 'tar3'))).toThrow(/unsupported/);
  });

  it('fills a new directory from the template and opens an existing one as it is', async () => {
    const template = await writePgliteTemplate(join(scratch, 'template'));
    const dir = join(scratch, 'from-template');
    await expect(preparePgliteDataDir(dir, { template })).resolves.toBe('template');
    expect(isPgliteDataDir(dir)).toBe(true);
    await expect(preparePgliteDataDir(dir, { template })).resolves.toBe('existing');
  }, 120_000);

  it('the template carries every committed migration, so a first start applies none', async () => {
    const template = await writePgliteTemplate(join(scratch, 'template-migrated'));
    const dataDir = join(scratch, 'first-start');
    await expect(preparePgliteDataDir(join(dataDir, 'pglite'), { template })).resolves.toBe('template');
    const db = await openDatabase({ databaseUrl: null, dataDir });
    try {
      const result = await db.migrate();
      expect(result.applied).toEqual([]);
      expect(result.alreadyApplied).toEqual(readMigrations(defaultMigrationsDir()).map((m) => m.name));
      // The schema is there, not only the bookkeeping.
      await expect(
        db.prisma.$queryRawUnsafe('SELECT count(*)::int AS n FROM audit_records'),
      ).resolves.toEqual([{ n: 0 }]);
    } finally {
      await db.close();
    }
  }, 180_000);

  it('the template is slim (one database, no optional forks) and the database works from it', async () => {
    const template = await writePgliteTemplate(join(scratch, 'template-slim'));
    const dataDir = join(scratch, 'slim-start');
    await expect(preparePgliteDataDir(join(dataDir, 'pglite'), { template })).resolves.toBe('template');
    const files = (readdirSync(join(dataDir, 'pglite'), { recursive: true }) as string[]).map(String);
    expect(files.filter((f) => /_(fsm|vm)$/.test(f))).toEqual([]);
    expect(readdirSync(join(dataDir, 'pglite', 'base'))).toHaveLength(1);
    const db = await openDatabase({ databaseUrl: null, dataDir });
    try {
      await expect(db.prisma.$queryRawUnsafe('SELECT datname FROM pg_database')).resolves.toEqual([
        { datname: 'postgres' },
      ]);
      // Writes, deletes and a VACUUM recreate the free-space and visibility maps as needed.
      await db.prisma.$executeRawUnsafe('CREATE TABLE churn (n int, pad text)');
      await db.prisma.$executeRawUnsafe(
        "INSERT INTO churn SELECT g, repeat('x', 200) FROM generate_series(1, 5000) g",
      );
      await db.prisma.$executeRawUnsafe('DELETE FROM churn WHERE n % 2 = 0');
      await db.prisma.$executeRawUnsafe('VACUUM churn');
      await db.prisma.$executeRawUnsafe('VACUUM');
      await expect(db.prisma.$queryRawUnsafe('SELECT count(*)::int AS n FROM churn')).resolves.toEqual([
        { n: 2500 },
      ]);
    } finally {
      await db.close();
    }
    const after = (readdirSync(join(dataDir, 'pglite'), { recursive: true }) as string[]).map(String);
    expect(after.some((f) => f.endsWith('_fsm'))).toBe(true);
  }, 180_000);

  it('runs initdb in a child process when there is no template (or it is not a data directory)', async () => {
    const bogus = join(scratch, 'bogus.tar.gz');
    writeFileSync(
      bogus,
      gzipSync(Buffer.concat([tarEntry('/README', 'not a data dir'), Buffer.alloc(1024)])),
    );
    const dir = join(scratch, 'initdb');
    await expect(preparePgliteDataDir(dir, { template: bogus })).resolves.toBe('initdb-process');
    expect(isPgliteDataDir(dir)).toBe(true);
    expect(existsSync(`${dir}.init-${process.pid}`)).toBe(false);
  }, 120_000);

  it('a service DATA_DIR opens, migrates and keeps its rows across a reopen', async () => {
    const dataDir = join(scratch, 'service');
    let db = await openDatabase({ databaseUrl: null, dataDir });
    try {
      await db.migrate();
      await db.prisma.$executeRawUnsafe('CREATE TABLE kept (v text)');
      await db.prisma.$executeRawUnsafe("INSERT INTO kept VALUES ('row')");
    } finally {
      await db.close();
    }
    expect(isPgliteDataDir(join(dataDir, 'pglite'))).toBe(true);
    db = await openDatabase({ databaseUrl: null, dataDir });
    try {
      const result = await db.migrate();
      expect(result.applied).toEqual([]);
      await expect(db.prisma.$queryRawUnsafe('SELECT v FROM kept')).resolves.toEqual([{ v: 'row' }]);
    } finally {
      await db.close();
    }
  }, 180_000);
});
