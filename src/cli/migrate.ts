// `npm run migrate`: applies pending migrations to DATABASE_URL (or the PGlite under DATA_DIR)
// and exits; the service also does this at start, so this is for deploy pipelines and init jobs.
import { ConfigValidationError, loadConfig } from '../config/env.schema';
import { openDatabase } from '../infra/database/database';

async function main(): Promise<number> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigValidationError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
  const database = await openDatabase({
    databaseUrl: config.storage.databaseUrl,
    dataDir: config.storage.dataDir,
  });
  try {
    const result = await database.migrate({ log: (message) => process.stdout.write(`${message}\n`) });
    process.stdout.write(
      `${database.kind}: ${result.applied.length} migration(s) applied, ${result.alreadyApplied.length} already applied\n`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`migration failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
