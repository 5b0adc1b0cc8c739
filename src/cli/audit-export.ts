// `npm run audit:export -- [--format jsonl|csv] [--from ISO] [--to ISO] [--login L] [--org O]
// [--repo R] [--tool T] [--kind K|ok] [--out FILE]`: writes the matching audit records, oldest
// first, as JSON Lines (default) or CSV to stdout or a file.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import {
  AuditQueryError,
  parseAuditQuery,
  csvHeader,
  serialiseRecord,
  type ExportFormat,
} from '../core/audit';
import { ConfigValidationError, loadConfig } from '../config/env.schema';
import { AuditRecordRepository } from '../infra/audit/audit-record.repository';
import { openDatabase } from '../infra/database/database';

type Sink = NodeJS.WritableStream;
const FLAGS = new Set(['format', 'from', 'to', 'login', 'org', 'repo', 'tool', 'kind', 'out']);

export function parseExportArgs(argv: string[]): {
  format: ExportFormat;
  out: string | null;
  filters: Record<string, string>;
} {
  const filters: Record<string, string> = {};
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    const match = /^--([a-z]+)(?:=(.*))?$/.exec(arg);
    if (!match || !FLAGS.has(match[1] as string)) throw new AuditQueryError(`unknown argument: ${arg}`);
    const value = match[2] ?? argv[++i];
    if (value === undefined) throw new AuditQueryError(`--${match[1]} needs a value`);
    filters[match[1] as string] = value;
  }
  const format = (filters.format ?? 'jsonl') as ExportFormat;
  if (format !== 'jsonl' && format !== 'csv') throw new AuditQueryError('--format must be jsonl or csv');
  const out = filters.out ?? null;
  delete filters.format;
  delete filters.out;
  return { format, out, filters };
}

async function write(sink: Sink, text: string): Promise<void> {
  if (!sink.write(text)) await once(sink, 'drain');
}

export async function runAuditExport(
  argv: string[],
  env: NodeJS.ProcessEnv,
  stdout: Sink,
  stderr: Sink,
): Promise<number> {
  let args;
  let config;
  try {
    args = parseExportArgs(argv);
    parseAuditQuery(args.filters);
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof AuditQueryError || error instanceof ConfigValidationError) {
      stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
  const query = parseAuditQuery({ ...args.filters, order: 'asc', limit: 1000 });
  const database = await openDatabase({
    databaseUrl: config.storage.databaseUrl,
    dataDir: config.storage.dataDir,
  });
  const sink = args.out ? createWriteStream(args.out) : stdout;
  let count = 0;
  try {
    await database.migrate();
    if (args.format === 'csv') await write(sink, csvHeader());
    for await (const record of new AuditRecordRepository(database.sql).stream(query)) {
      await write(sink, serialiseRecord(record, args.format));
      count += 1;
    }
  } finally {
    if (args.out) {
      sink.end();
      await once(sink, 'finish');
    }
    await database.close();
  }
  stderr.write(`exported ${count} audit record(s)\n`);
  return 0;
}

if (require.main === module) {
  runAuditExport(process.argv.slice(2), process.env, process.stdout, process.stderr).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(
        `audit export failed: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
