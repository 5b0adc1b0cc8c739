// Database targets for the audit suites: like database-targets.ts, but a PostgreSQL target also
// exposes its URL so a test can open a second client (another replica) or put a proxy in front.
import { IN_MEMORY_DATA_DIR, openDatabase, type Database } from '../../../src/infra/database/database';
import { POSTGRES_SKIP_REASON, TEST_DATABASE_URL, createScratchPostgres } from '../database/database-targets';

export type AuditDb = Database & { url: string | null; dispose(): Promise<void> };
export type AuditTarget = { name: 'pglite' | 'postgres'; open(): Promise<AuditDb> };

export const pgliteTarget: AuditTarget = {
  name: 'pglite',
  async open() {
    const database = await openDatabase({ databaseUrl: null, dataDir: IN_MEMORY_DATA_DIR });
    await database.migrate();
    return { ...database, url: null, dispose: () => database.close() };
  },
};

export const postgresTarget = (baseUrl: string): AuditTarget => ({
  name: 'postgres',
  async open() {
    const scratch = await createScratchPostgres(baseUrl);
    const database = await openDatabase({ databaseUrl: scratch.url, dataDir: IN_MEMORY_DATA_DIR });
    await database.migrate();
    return {
      ...database,
      url: scratch.url,
      async dispose() {
        await database.close();
        await scratch.drop();
      },
    };
  },
});

export function describeEachAuditDatabase(title: string, suite: (target: AuditTarget) => void): void {
  describe(`${title} [pglite]`, () => suite(pgliteTarget));
  const baseUrl = TEST_DATABASE_URL;
  if (baseUrl) {
    describe(`${title} [postgres]`, () => suite(postgresTarget(baseUrl)));
  } else {
    describe.skip(`${title} [postgres] SKIPPED: ${POSTGRES_SKIP_REASON}`, () => {
      it('runs against real PostgreSQL', () => undefined);
    });
    process.stderr.write(`SKIPPED ${title} [postgres]: ${POSTGRES_SKIP_REASON}\n`);
  }
}
