// The databases every database suite runs against: PGlite always, real PostgreSQL when
// TEST_DATABASE_URL is set (each suite gets its own fresh database, so the user in that URL
// needs CREATEDB). Other suites may import these helpers.
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { IN_MEMORY_DATA_DIR, openDatabase, type Database } from '../../../src/infra/database/database';

export type DatabaseTarget = {
  name: 'pglite' | 'postgres';
  open(): Promise<Database & { dispose(): Promise<void> }>;
};

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL?.trim() || null;
export const POSTGRES_SKIP_REASON =
  'TEST_DATABASE_URL is not set (run .ci/run, or point it at a PostgreSQL user with CREATEDB)';

const pglite: DatabaseTarget = {
  name: 'pglite',
  async open() {
    const database = await openDatabase({ databaseUrl: null, dataDir: IN_MEMORY_DATA_DIR });
    return { ...database, dispose: () => database.close() };
  },
};

/** Creates an empty database next to TEST_DATABASE_URL's and returns its URL and a drop function. */
export async function createScratchPostgres(
  baseUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `aegis_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new Client({ connectionString: baseUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

const postgres = (baseUrl: string): DatabaseTarget => ({
  name: 'postgres',
  async open() {
    const scratch = await createScratchPostgres(baseUrl);
    const database = await openDatabase({ databaseUrl: scratch.url, dataDir: IN_MEMORY_DATA_DIR });
    return {
      ...database,
      async dispose() {
        await database.close();
        await scratch.drop();
      },
    };
  },
});

/** Runs `suite` once per available database; says loudly when PostgreSQL is skipped and why. */
export function describeEachDatabase(title: string, suite: (target: DatabaseTarget) => void): void {
  describe(`${title} [pglite]`, () => suite(pglite));
  if (TEST_DATABASE_URL) {
    describe(`${title} [postgres]`, () => suite(postgres(TEST_DATABASE_URL)));
  } else {
    describe.skip(`${title} [postgres] SKIPPED: ${POSTGRES_SKIP_REASON}`, () => {
      it('runs against real PostgreSQL', () => undefined);
    });
    process.stderr.write(`SKIPPED ${title} [postgres]: ${POSTGRES_SKIP_REASON}\n`);
  }
}
