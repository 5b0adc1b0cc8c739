// `npm run audit:verify`: walks the audit chain from its base (genesis or the last pruning
// checkpoint) to the recorded head and reports the first broken link. Exit code 0 = intact,
// 2 = broken, 1 = could not run. Prints the head so operators can keep it elsewhere as an anchor.
import { ConfigValidationError, loadConfig } from '../config/env.schema';
import { AuditRecordRepository } from '../infra/audit/audit-record.repository';
import { openDatabase } from '../infra/database/database';

type Out = { write(text: string): unknown };

export async function runAuditVerify(env: NodeJS.ProcessEnv, out: Out, err: Out): Promise<number> {
  let config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigValidationError) {
      err.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
  const database = await openDatabase({
    databaseUrl: config.storage.databaseUrl,
    dataDir: config.storage.dataDir,
  });
  try {
    await database.migrate();
    const result = await new AuditRecordRepository(database.sql).verify();
    const summary = `checked ${result.checked} record(s) from seq ${result.anchor.seq + 1n}; head seq ${result.head.seq} hash ${result.head.hash}`;
    if (result.ok) {
      out.write(`audit chain OK: ${summary}\n`);
      return 0;
    }
    const brk = result.firstBreak!;
    out.write(
      `audit chain BROKEN at seq ${brk.seq}${brk.eventId ? ` (event ${brk.eventId})` : ''}: ${brk.reason}: ${brk.detail}\n${summary}\n`,
    );
    return 2;
  } finally {
    await database.close();
  }
}

if (require.main === module) {
  runAuditVerify(process.env, process.stdout, process.stderr).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(
        `audit verify failed: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
