// Applies the committed migrations to an empty database and compares the result with
// prisma/schema.prisma (through getDMMF): tables, columns, types, nullability, defaults,
// primary keys and indexes. A model change without a migration (or the reverse) fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getDMMF } from '@prisma/internals';
import type { Database } from '../../../src/infra/database/database';
import { checksumOf, readMigrations } from '../../../src/infra/database/migrator';
import { describeEachDatabase } from './database-targets';

type Dmmf = Awaited<ReturnType<typeof getDMMF>>;
type Column = { table: string; column: string; type: string; nullable: boolean; default: string | null };
type Index = { table: string; name: string; unique: boolean; primary: boolean; columns: string[] };

const ROOT = join(__dirname, '../../..');
const MIGRATIONS_DIR = join(ROOT, 'prisma/migrations');

const SCALAR_TYPES: Record<string, string> = {
  String: 'text',
  Int: 'integer',
  BigInt: 'bigint',
  Float: 'double precision',
  Boolean: 'boolean',
  DateTime: 'timestamp(3) without time zone',
  Json: 'jsonb',
  Decimal: 'numeric(65,30)',
  Bytes: 'bytea',
};

// Prisma native type attribute -> PostgreSQL format_type() spelling.
function nativeType(name: string, args: readonly string[]): string {
  const a = args.join(',');
  switch (name) {
    case 'Timestamptz':
      return `timestamp(${a || '6'}) with time zone`;
    case 'Timestamp':
      return `timestamp(${a || '6'}) without time zone`;
    case 'VarChar':
      return a ? `character varying(${a})` : 'character varying';
    case 'Char':
      return `character(${a || '1'})`;
    case 'Text':
      return 'text';
    case 'Uuid':
      return 'uuid';
    case 'Integer':
      return 'integer';
    case 'SmallInt':
      return 'smallint';
    case 'BigInt':
      return 'bigint';
    case 'DoublePrecision':
      return 'double precision';
    case 'Real':
      return 'real';
    case 'Boolean':
      return 'boolean';
    case 'Date':
      return 'date';
    case 'JsonB':
      return 'jsonb';
    case 'Json':
      return 'json';
    case 'Decimal':
      return a ? `numeric(${a})` : 'numeric';
    case 'ByteA':
      return 'bytea';
    default:
      throw new Error(`schema-drift test: native type @db.${name} not mapped yet; add it here`);
  }
}

function expectedSchema(dmmf: Dmmf): { columns: Column[]; indexes: Index[] } {
  const columns: Column[] = [];
  const indexes: Index[] = [];
  for (const model of dmmf.datamodel.models) {
    const table = model.dbName ?? model.name;
    for (const field of model.fields) {
      if (field.kind === 'object') continue;
      let type =
        field.kind === 'enum'
          ? (dmmf.datamodel.enums.find((e) => e.name === field.type)?.dbName ?? field.type)
          : field.nativeType
            ? nativeType(field.nativeType[0], field.nativeType[1])
            : SCALAR_TYPES[field.type];
      if (!type) throw new Error(`schema-drift test: scalar ${field.type} not mapped`);
      if (field.isList) type = `${type}[]`;
      const def = field.default as { name?: string } | undefined;
      const defaultKind =
        def && typeof def === 'object' && 'name' in def
          ? def.name === 'autoincrement'
            ? 'sequence'
            : def.name === 'now'
              ? 'now'
              : 'value'
          : field.hasDefaultValue
            ? 'value'
            : null;
      columns.push({
        table,
        column: field.dbName ?? field.name,
        type,
        nullable: !field.isRequired,
        default: defaultKind,
      });
    }
  }
  for (const index of dmmf.datamodel.indexes) {
    const model = dmmf.datamodel.models.find((m) => m.name === index.model)!;
    const table = model.dbName ?? model.name;
    const cols = index.fields.map((f) => model.fields.find((x) => x.name === f.name)?.dbName ?? f.name);
    const suffix = index.type === 'id' ? 'pkey' : index.type === 'unique' ? 'key' : 'idx';
    const defaultName = index.type === 'id' ? `${table}_pkey` : `${table}_${cols.join('_')}_${suffix}`;
    if (index.type === 'fulltext') throw new Error('schema-drift test: fulltext indexes are not supported');
    indexes.push({
      table,
      name: (index.dbName ?? defaultName).slice(0, 63),
      unique: index.type !== 'normal',
      primary: index.type === 'id',
      columns: cols,
    });
  }
  return { columns: sortBy(columns), indexes: sortBy(indexes) };
}

const sortBy = <T extends { table: string }>(rows: T[]): T[] =>
  [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

async function actualSchema(
  db: Database,
): Promise<{ columns: Column[]; indexes: Index[]; tables: string[] }> {
  const q = <T>(sql: string) => db.prisma.$queryRawUnsafe<T[]>(sql);
  const tables = (
    await q<{ table: string }>(
      `SELECT c.relname AS "table" FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname <> '_prisma_migrations' ORDER BY 1`,
    )
  ).map((r) => r.table);
  const columns = await q<{
    table: string;
    column: string;
    type: string;
    nullable: boolean;
    def: string | null;
  }>(
    `SELECT c.relname AS "table", a.attname AS "column", format_type(a.atttypid, a.atttypmod) AS "type",
            NOT a.attnotnull AS "nullable", pg_get_expr(d.adbin, d.adrelid) AS "def"
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname <> '_prisma_migrations'
        AND a.attnum > 0 AND NOT a.attisdropped`,
  );
  const indexes = await q<{
    table: string;
    name: string;
    unique: boolean;
    primary: boolean;
    columns: string[];
  }>(
    `SELECT t.relname AS "table", i.relname AS "name", x.indisunique AS "unique", x.indisprimary AS "primary",
            ARRAY(SELECT a.attname::text FROM unnest(x.indkey) WITH ORDINALITY k(attnum, ord)
                  JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.ord) AS "columns"
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = current_schema() AND t.relname <> '_prisma_migrations'`,
  );
  return {
    tables,
    columns: sortBy(
      columns.map((c) => ({
        table: c.table,
        column: c.column,
        type: c.type,
        nullable: c.nullable,
        default:
          c.def === null
            ? null
            : c.def.startsWith('nextval(')
              ? 'sequence'
              : /^(now\(\)|CURRENT_TIMESTAMP)/i.test(c.def)
                ? 'now'
                : 'value',
      })),
    ),
    indexes: sortBy(indexes),
  };
}

describeEachDatabase('schema.prisma matches the migrations', (target) => {
  let db: Database & { dispose(): Promise<void> };
  let dmmf: Dmmf;

  beforeAll(async () => {
    dmmf = await getDMMF({ datamodel: readFileSync(join(ROOT, 'prisma/schema.prisma'), 'utf8') });
    db = await target.open();
    await db.migrate();
  }, 60_000);
  afterAll(async () => {
    await db?.dispose();
  });

  it('has exactly the tables of the models', async () => {
    const expected = dmmf.datamodel.models.map((m) => m.dbName ?? m.name).sort();
    expect((await actualSchema(db)).tables).toEqual(expected);
  });

  it('has the columns, types, nullability and defaults of the models', async () => {
    expect((await actualSchema(db)).columns).toEqual(expectedSchema(dmmf).columns);
  });

  it('has the primary keys, unique constraints and indexes of the models', async () => {
    expect((await actualSchema(db)).indexes).toEqual(expectedSchema(dmmf).indexes);
  });

  it('records every migration in _prisma_migrations as prisma migrate deploy does', async () => {
    const rows = await db.prisma.$queryRawUnsafe<
      Array<{
        id: string;
        checksum: string;
        migration_name: string;
        finished_at: Date | null;
        rolled_back_at: Date | null;
        started_at: Date;
        applied_steps_count: number;
        logs: string | null;
      }>
    >('SELECT * FROM "_prisma_migrations" ORDER BY migration_name');
    const files = readMigrations(MIGRATIONS_DIR);
    expect(rows.map((r) => r.migration_name)).toEqual(files.map((f) => f.name));
    for (const [i, row] of rows.entries()) {
      const file = files[i]!;
      expect(row.checksum).toBe(checksumOf(readFileSync(join(MIGRATIONS_DIR, file.name, 'migration.sql'))));
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
      expect(row.logs).toBeNull();
    }
    const table = await db.prisma.$queryRawUnsafe<Array<{ column: string; type: string; nullable: boolean }>>(
      `SELECT a.attname AS "column", format_type(a.atttypid, a.atttypmod) AS "type", NOT a.attnotnull AS "nullable"
         FROM pg_attribute a WHERE a.attrelid = '"_prisma_migrations"'::regclass AND a.attnum > 0 ORDER BY a.attnum`,
    );
    expect(table).toEqual([
      { column: 'id', type: 'character varying(36)', nullable: false },
      { column: 'checksum', type: 'character varying(64)', nullable: false },
      { column: 'finished_at', type: 'timestamp with time zone', nullable: true },
      { column: 'migration_name', type: 'character varying(255)', nullable: false },
      { column: 'logs', type: 'text', nullable: true },
      { column: 'rolled_back_at', type: 'timestamp with time zone', nullable: true },
      { column: 'started_at', type: 'timestamp with time zone', nullable: false },
      { column: 'applied_steps_count', type: 'integer', nullable: false },
    ]);
  });

  it('is idempotent: a second run applies nothing', async () => {
    const again = await db.migrate();
    expect(again.applied).toEqual([]);
    expect(again.alreadyApplied).toEqual(readMigrations(MIGRATIONS_DIR).map((f) => f.name));
  });
});
