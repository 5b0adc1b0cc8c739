// The audit pipeline end to end below the MCP layer: AuditSink.record() → queue (in-process,
// or BullMQ on Redis) → batch writer → database. N calls give exactly N chained records with
// the right fields and no secret anywhere; Redis killed mid-run and the database cut away for a
// while lose nothing and store nothing twice; tampering is reported by audit:verify.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { emptyQuery, prepareAuditFields } from '../../../src/core/audit';
import type { AuditEntry } from '../../../src/core/ports';
import { runAuditExport } from '../../../src/cli/audit-export';
import { runAuditVerify } from '../../../src/cli/audit-verify';
import { openDatabase, type Database } from '../../../src/infra/database/database';
import { AuditRecordRepository } from '../../../src/infra/audit/audit-record.repository';
import { TEST_DATABASE_URL, createScratchPostgres } from '../database/database-targets';
import {
  CuttableProxy,
  OwnRedis,
  REDIS_BINARY,
  SECRET,
  buildPipeline,
  freePort,
  metricValue,
  waitFor,
} from './audit-helpers';
import { describeEachAuditDatabase, type AuditDb } from './audit-targets';
import { sampleEntry } from './audit-fixtures';

const TEST_REDIS_URL = process.env.TEST_REDIS_URL?.trim() || null;

function call(i: number): AuditEntry {
  // The executor redacts arguments; the secret planted here checks the sink's last line of defence.
  return sampleEntry({
    eventId: `call-${Date.now()}-${i}-${Math.random().toString(36).slice(2)}`,
    tool: i % 3 === 0 ? 'issue_create' : 'repo_get',
    status: i % 5 === 0 ? 404 : 200,
    kind: i % 5 === 0 ? 'not_found' : null,
    path: `/repos/acme/widgets/issues/${i}`,
    arguments: { owner: 'acme', repo: 'widgets', index: i, body: i % 7 === 0 ? `token ${SECRET}` : 'hello' },
  });
}

async function allText(db: Database): Promise<string> {
  const rows = await db.prisma.$queryRawUnsafe<Array<{ t: string }>>(
    `SELECT row_to_json(a)::text AS t FROM audit_records a`,
  );
  return rows.map((r) => r.t).join('\n');
}

async function expectExactlyOnce(db: Database, eventIds: string[]): Promise<void> {
  const rows = await db.prisma.$queryRawUnsafe<Array<{ event_id: string }>>(
    `SELECT event_id FROM audit_records`,
  );
  const stored = rows.map((r) => r.event_id).sort();
  expect(stored).toEqual([...eventIds].sort());
}

describeEachAuditDatabase('audit pipeline', (target) => {
  let db: AuditDb;
  beforeAll(async () => {
    db = await target.open();
  }, 60_000);
  afterAll(async () => {
    await db?.dispose();
  });
  beforeEach(async () => {
    await db.prisma.$executeRawUnsafe('DELETE FROM audit_records');
    await db.prisma.$executeRawUnsafe('DELETE FROM audit_chain');
  });

  const redisUrl = target.name === 'postgres' ? TEST_REDIS_URL : null;
  const queueName = redisUrl ? 'BullMQ on Redis' : 'the in-process queue';

  it(`N calls through ${queueName} give exactly N records with the right fields and no secret`, async () => {
    const harness = buildPipeline(db.sql, redisUrl);
    try {
      const entries = Array.from({ length: 250 }, (_, i) => call(i));
      const started = process.hrtime.bigint();
      for (const entry of entries) harness.pipeline.record(entry);
      const perCallUs = Number(process.hrtime.bigint() - started) / 1000 / entries.length;
      expect(perCallUs).toBeLessThan(1000); // record() never waits for I/O
      await waitFor(async () => (await harness.repo.count()) === entries.length, 30_000, 'all records');
      await expectExactlyOnce(
        db,
        entries.map((e) => e.eventId),
      );
      expect(await allText(db)).not.toContain(SECRET);
      const page = await harness.repo.query(
        emptyQuery({ tool: 'issue_create', kind: 'not_found', order: 'asc' }),
      );
      const sample = entries.find((e, i) => i % 15 === 0 && i > 0)!;
      const stored = page.items.find((r) => r.eventId === sample.eventId)!;
      expect(stored).toMatchObject({
        login: 'alice',
        mode: 'oauth',
        clientName: 'test-client',
        clientVersion: '1.2.3',
        tool: 'issue_create',
        org: 'acme',
        repo: 'widgets',
        method: 'GET',
        path: sample.path,
        status: 404,
        kind: 'not_found',
        durationMs: 1.234,
        resultBytes: 321,
        blocked: false,
        arguments: sample.arguments,
      });
      expect(stored.createdAt.getTime()).toBe(sample.time.getTime());
      expect(await harness.repo.verify()).toMatchObject({ ok: true, checked: entries.length });
      expect(await metricValue(harness.registry, 'aegis_audit_records_written_total')).toBe(entries.length);
      expect(await metricValue(harness.registry, 'aegis_audit_records_enqueued_total')).toBe(entries.length);
      expect(await metricValue(harness.registry, 'aegis_audit_secrets_scrubbed_total')).toBeGreaterThan(0);
    } finally {
      await harness.close();
    }
  }, 60_000);

  const redisFault = REDIS_BINARY ? it : it.skip;
  if (!REDIS_BINARY) process.stderr.write('SKIPPED audit Redis fault test: redis-server is not installed\n');
  redisFault(
    'Redis killed in the middle of a run: every call has exactly one record',
    async () => {
      const redis = new OwnRedis(await freePort());
      await redis.start();
      const harness = buildPipeline(db.sql, redis.url, 10);
      const entries: AuditEntry[] = [];
      try {
        for (let i = 0; i < 150; i += 1) {
          if (i === 60) await redis.kill();
          if (i === 120) await redis.start();
          const entry = call(i);
          entries.push(entry);
          harness.pipeline.record(entry);
          // While Redis is down, calls keep coming for well over the enqueue timeout.
          if (i % 10 === 9)
            await new Promise((resolve) => setTimeout(resolve, i >= 60 && i < 120 ? 400 : 30));
        }
        await harness.pipeline.flush();
        await waitFor(
          async () => (await harness.repo.count()) === entries.length,
          75_000,
          'all records after Redis returned',
        ).catch(async (e) => {
          // Say where the records went before failing: it tells a lost record from a slow queue.
          process.stderr.write(
            'audit records after Redis returned: stored=' +
              (await harness.repo.count()) +
              ' fb=' +
              (await metricValue(harness.registry, 'aegis_audit_fallback_total')) +
              ' enq=' +
              (await metricValue(harness.registry, 'aegis_audit_records_enqueued_total')) +
              ' wr=' +
              (await metricValue(harness.registry, 'aegis_audit_records_written_total')) +
              ' fail=' +
              (await metricValue(harness.registry, 'aegis_audit_write_failures_total')) +
              ' depth=' +
              (await harness.jobs
                .counts('aegis-audit')
                .then((c) => JSON.stringify(c))
                .catch((x) => String(x))) +
              '\n',
          );
          throw e;
        });
        await new Promise((resolve) => setTimeout(resolve, 500)); // late duplicates would land now
        await expectExactlyOnce(
          db,
          entries.map((e) => e.eventId),
        );
        expect(await harness.repo.verify()).toMatchObject({ ok: true, checked: entries.length });
        expect(await metricValue(harness.registry, 'aegis_audit_fallback_total')).toBeGreaterThan(0);
      } finally {
        await harness.close();
        await redis.kill();
      }
      // A job that was running when Redis died is recovered by BullMQ's stalled-job check (~30 s).
    },
    150_000,
  );
});

const pgFault = TEST_DATABASE_URL ? describe : describe.skip;
if (!TEST_DATABASE_URL)
  process.stderr.write('SKIPPED audit PostgreSQL outage test: TEST_DATABASE_URL is not set\n');
pgFault('audit pipeline with PostgreSQL unavailable for a while', () => {
  it('retries with backoff and stores every call exactly once after recovery', async () => {
    const scratch = await createScratchPostgres(TEST_DATABASE_URL as string);
    const direct = await openDatabase({ databaseUrl: scratch.url, dataDir: 'memory://' });
    await direct.migrate();
    const target = new URL(scratch.url);
    const proxy = new CuttableProxy(target.hostname, Number(target.port || 5432));
    await proxy.open();
    const viaProxy = new URL(scratch.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const proxied = await openDatabase({ databaseUrl: viaProxy.toString(), dataDir: 'memory://' });
    const harness = buildPipeline(proxied.sql, TEST_REDIS_URL, 10);
    const entries: AuditEntry[] = [];
    try {
      for (let i = 0; i < 120; i += 1) {
        if (i === 40) await proxy.cut();
        if (i === 100) await proxy.open();
        const entry = call(i);
        entries.push(entry);
        harness.pipeline.record(entry);
        if (i % 10 === 9) await new Promise((resolve) => setTimeout(resolve, 40));
      }
      const repo = new AuditRecordRepository(direct.sql);
      await waitFor(
        async () => (await repo.count()) === entries.length,
        60_000,
        'all records after the database returned',
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      await expectExactlyOnce(
        direct,
        entries.map((e) => e.eventId),
      );
      expect(await repo.verify()).toMatchObject({ ok: true, checked: entries.length });
      expect(await metricValue(harness.registry, 'aegis_audit_write_failures_total')).toBeGreaterThan(0);
    } finally {
      await harness.close();
      await proxied.close();
      await proxy.cut();
      await direct.close();
      await scratch.drop();
    }
  }, 120_000);
});

describe('audit:verify and audit:export CLIs', () => {
  it('report an intact chain, then the first altered and deleted record; export JSONL and CSV', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'aegis-audit-cli-'));
    const env = { DATA_DIR: dataDir, LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv;
    const open = async () => {
      const db = await openDatabase({ databaseUrl: null, dataDir });
      await db.migrate();
      return db;
    };
    let db = await open();
    await new AuditRecordRepository(db.sql).appendBatch(
      Array.from({ length: 5 }, (_, i) => prepareAuditFields(call(i)).fields),
    );
    await db.close();
    const run = async (): Promise<{ code: number; text: string }> => {
      let text = '';
      const out = { write: (t: string) => (text += t) };
      const code = await runAuditVerify(env, out, out);
      return { code, text };
    };
    expect(await run()).toMatchObject({
      code: 0,
      text: expect.stringContaining('audit chain OK: checked 5'),
    });

    const exportFile = join(dataDir, 'out.csv');
    const err = new PassThrough();
    expect(
      await runAuditExport(
        ['--format', 'csv', '--out', exportFile, '--tool', 'repo_get'],
        env,
        new PassThrough(),
        err,
      ),
    ).toBe(0);
    const csv = readFileSync(exportFile, 'utf8').trim().split('\r\n');
    expect(csv[0]).toMatch(/^seq,event_id,created_at/);
    expect(csv).toHaveLength(1 + 3);
    const stdout = new PassThrough();
    let jsonl = '';
    stdout.on('data', (chunk: Buffer) => (jsonl += chunk.toString()));
    expect(await runAuditExport(['--org=acme'], env, stdout, err)).toBe(0);
    expect(
      jsonl
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).seq),
    ).toEqual(['1', '2', '3', '4', '5']);
    expect(await runAuditExport(['--bogus', 'x'], env, stdout, err)).toBe(1);

    db = await open();
    await db.prisma.$executeRawUnsafe(`UPDATE audit_records SET status = 201 WHERE seq = 4`);
    await db.close();
    const altered = await run();
    expect(altered.code).toBe(2);
    expect(altered.text).toContain('BROKEN at seq 4');
    expect(altered.text).toContain('hash_mismatch');

    db = await open();
    await db.prisma.$executeRawUnsafe(`UPDATE audit_records SET status = 200 WHERE seq = 4`);
    await db.prisma.$executeRawUnsafe(`DELETE FROM audit_records WHERE seq = 2`);
    await db.close();
    const deleted = await run();
    expect(deleted.code).toBe(2);
    expect(deleted.text).toMatch(/BROKEN at seq 2: missing_records/);
  }, 60_000);
});
