// Issue 7: N calls through the MCP endpoint of the whole service (src/main.ts composition, the
// audit module wired in) against the Gitea simulator produce exactly N audit records with the
// right fields and no secret in any column. Driven with the official MCP SDK clients (1.x on
// 2025-11-25, 2.x on 2026-07-28). Calls: allowed, refused (disabled tool, failed validation),
// failed (Gitea 404) and authentication failures on /mcp (each refused request is one record,
// tool "mcp.authenticate"). Runs on PGlite + the in-process queue always, and on real
// PostgreSQL + Redis (BullMQ) when TEST_DATABASE_URL and TEST_REDIS_URL are set.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as PgClient } from 'pg';
import { runAuditVerify } from '../../../src/cli/audit-verify';
import { IN_MEMORY_DATA_DIR, openDatabase } from '../../../src/infra/database/database';
import { createScratchPostgres, TEST_DATABASE_URL } from '../../integration/database/database-targets';
import { connect, envelope, type McpClient } from '../mcp/helpers/clients';
import { startGitea, type TestGitea } from '../mcp/helpers/gitea';
import { BEARER, startMcpApp, testConfig, type McpApp } from '../mcp/helpers/mcp-app';

jest.setTimeout(120_000);

const TEST_REDIS_URL = process.env.TEST_REDIS_URL?.trim() || null;
// A submitted password short enough to slip under the body-secret length floor of the results
// layer: the audit redaction must still remove it.
const PASSWORD = 'pw9';
const LONG_PASSWORD = 'Corr3ct-Horse-Battery-Staple-9241';
const WRONG_BEARER = 'wrong-bearer-token-that-must-not-be-stored-5d1e';

type Row = Record<string, unknown>;

type Target = {
  env(): Promise<Record<string, string>>;
  /** Every audit row as row_to_json text, ordered by seq; may need the service stopped (PGlite). */
  rows(): Promise<string[]>;
  /** Whether rows() works while the service runs. */
  live: boolean;
  verifyEnv(): Record<string, string>;
  dispose(): Promise<void>;
};

const ROWS_SQL = 'SELECT row_to_json(t)::text AS j FROM audit_records t ORDER BY t.seq';

function pgliteTarget(): Target {
  const dir = mkdtempSync(join(tmpdir(), 'aegis-audit-e2e-'));
  return {
    live: false,
    env: async () => ({ DATA_DIR: dir }),
    async rows() {
      const database = await openDatabase({ databaseUrl: null, dataDir: dir });
      try {
        const rows = await database.prisma.$queryRawUnsafe<Array<{ j: string }>>(ROWS_SQL);
        return rows.map((r) => r.j);
      } finally {
        await database.close();
      }
    },
    verifyEnv: () => ({ DATA_DIR: dir }),
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

function postgresTarget(baseUrl: string, redisBase: string): Target {
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>> | null = null;
  // A Redis database of its own, emptied first: no job left by another run can land in this one.
  const redis = new URL(redisBase);
  redis.pathname = '/11';
  return {
    live: true,
    async env() {
      scratch = await createScratchPostgres(baseUrl);
      const { Redis } = await import('ioredis');
      const client = new Redis(redis.toString(), { maxRetriesPerRequest: 1 });
      await client.flushdb();
      await client.quit();
      return { DATABASE_URL: scratch.url, REDIS_URL: redis.toString() };
    },
    async rows() {
      const client = new PgClient({ connectionString: scratch!.url });
      await client.connect();
      try {
        return (await client.query<{ j: string }>(ROWS_SQL)).rows.map((r) => r.j);
      } finally {
        await client.end();
      }
    },
    verifyEnv: () => ({ DATABASE_URL: scratch!.url, DATA_DIR: IN_MEMORY_DATA_DIR }),
    dispose: async () => scratch?.drop(),
  };
}

// Metrics answer on the MCP port only with METRICS_TOKEN (the test process has no metrics port).
const METRICS_TOKEN = 'test-metrics-token-0123456789abcdef';

async function metric(base: string, name: string): Promise<number> {
  const headers = { authorization: `Bearer ${METRICS_TOKEN}` };
  const text = await (await fetch(`${base}/metrics`, { headers })).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith(name) && !line.startsWith('#'))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Counts the 401 answers /mcp gives while `run` executes (the SDK uses the global fetch). */
async function counting401(url: string, run: () => Promise<void>): Promise<number> {
  const original = globalThis.fetch;
  let count = 0;
  globalThis.fetch = async (input, init) => {
    const response = await original(input, init);
    const target = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (target.startsWith(url) && response.status === 401) count += 1;
    return response;
  };
  try {
    await run();
  } finally {
    globalThis.fetch = original;
  }
  return count;
}

const targets: Array<{ name: string; make: () => Target }> = [
  { name: 'PGlite + in-process queue', make: pgliteTarget },
];
if (TEST_DATABASE_URL && TEST_REDIS_URL) {
  const [db, redis] = [TEST_DATABASE_URL, TEST_REDIS_URL];
  targets.push({ name: 'PostgreSQL + Redis (BullMQ)', make: () => postgresTarget(db, redis) });
} else {
  process.stderr.write(
    'SKIPPED audit e2e [PostgreSQL + Redis]: TEST_DATABASE_URL and TEST_REDIS_URL must both be set (.ci/run sets them)\n',
  );
}

describe.each(targets)('audit of MCP calls on $name', ({ make }) => {
  let gitea: TestGitea;
  let target: Target;
  let app: McpApp | null = null;

  beforeAll(async () => {
    gitea = await startGitea();
    target = make();
  });

  afterAll(async () => {
    await app?.close();
    await gitea?.close();
    await target?.dispose();
  });

  it('stores exactly one record per call, with the right fields and no secret in any column', async () => {
    const config = testConfig(gitea.url, gitea.tokens.admin, {
      ALLOW_SUDO: 'true',
      DISABLED_TOOLS: 'repoDelete',
      LOG_LEVEL: 'warn',
      METRICS_TOKEN,
      ...(await target.env()),
    });
    app = await startMcpApp(config, { full: true });
    const auth = { Authorization: `Bearer ${BEARER}` };
    const started = Date.now();

    // [partial record expected, call]
    const expected: Row[] = [];
    const legacy: McpClient = await connect(app.url, 'sdk1', '2025-11-25', auth);
    const modern: McpClient = await connect(app.url, 'sdk2', '2026-07-28', auth);
    const legacyClient = { client_name: 'e2e-sdk1-2025-11-25', client_version: '1.0.0' };
    const service = { login: 'admin', mode: 'token' };
    try {
      const me = await legacy.callTool('userGetCurrent', {});
      expect(envelope(me).data.login).toBe('admin');
      expected.push({
        ...service,
        ...legacyClient,
        sudo: null,
        tool: 'userGetCurrent',
        operation_id: 'userGetCurrent',
        method: 'GET',
        path: '/user',
        status: 200,
        kind: null,
        blocked: false,
      });

      const repo = await legacy.callTool('repoGet', { owner: 'acme', repo: 'widgets' });
      expect(repo.isError).toBeFalsy();
      expected.push({
        ...service,
        tool: 'repoGet',
        org: 'acme',
        repo: 'widgets',
        method: 'GET',
        path: '/repos/acme/widgets',
        status: 200,
        kind: null,
      });

      const missing = await legacy.callTool('repoGet', { owner: 'acme', repo: 'no-such-repo' });
      expect(missing.isError).toBe(true);
      expect(envelope(missing).error.kind).toBe('not_found');
      expected.push({
        ...service,
        tool: 'repoGet',
        org: 'acme',
        repo: 'no-such-repo',
        path: '/repos/acme/no-such-repo',
        status: 404,
        kind: 'not_found',
      });

      const disabled = await legacy.callTool('repoDelete', { owner: 'acme', repo: 'widgets' });
      expect(disabled.isError).toBe(true);
      expected.push({ ...service, tool: 'repoDelete', path: null, status: null, kind: 'tool_disabled' });

      const invalid = await legacy.callTool('repoGet', { owner: 'acme' });
      expect(invalid.isError).toBe(true);
      expected.push({ ...service, tool: 'repoGet', path: null, status: null, kind: 'invalid_arguments' });

      const created = await legacy.callTool('adminCreateUser', {
        body: { username: 'eve', email: 'eve@example.com', password: PASSWORD, must_change_password: false },
      });
      expect(created.isError).toBeFalsy();
      expected.push({
        ...service,
        tool: 'adminCreateUser',
        method: 'POST',
        path: '/admin/users',
        status: 201,
        kind: null,
        arguments: { body: { username: 'eve', email: 'eve@example.com', password: '[REDACTED]' } },
      });

      const secrets = await legacy.callTool('repoGetRawFile', {
        owner: 'acme',
        repo: 'widgets',
        filepath: 'config/.env',
      });
      expect(secrets.isError).toBeFalsy();
      expected.push({
        ...service,
        tool: 'repoGetRawFile',
        status: 200,
        kind: null,
        masks: expect.any(Number),
      });

      const asBob = await modern.callTool('userGetCurrent', {}, { 'aegis/sudo': 'bob' });
      expect(envelope(asBob).data.login).toBe('bob');
      expected.push({ ...service, sudo: 'bob', tool: 'userGetCurrent', status: 200, kind: null });

      const raw = await modern.callTool('gitea_api_request', {
        method: 'PATCH',
        path: '/admin/users/eve',
        body: { login_name: 'eve', source_id: 0, password: LONG_PASSWORD },
      });
      expect(raw.isError).toBeFalsy();
      expected.push({
        ...service,
        tool: 'gitea_api_request',
        operation_id: 'adminEditUser',
        method: 'PATCH',
        path: '/admin/users/eve',
        status: 200,
        kind: null,
      });
    } finally {
      await legacy.close();
      await modern.close();
    }

    // Authentication failures: one raw tools/call and one SDK client that cannot connect.
    const failures = await counting401(app.url, async () => {
      const response = await fetch(app!.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${WRONG_BEARER}`,
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'userGetCurrent',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'userGetCurrent' },
        }),
      });
      expect(response.status).toBe(401);
      await expect(
        connect(app!.url, 'sdk1', '2025-11-25', { Authorization: `Bearer ${WRONG_BEARER}` }),
      ).rejects.toThrow();
    });
    expect(failures).toBeGreaterThanOrEqual(2);
    for (let i = 0; i < failures; i += 1) {
      expected.push({
        tool: 'mcp.authenticate',
        login: null,
        mode: null,
        status: 401,
        kind: 'mcp_unauthorized',
        arguments: expect.objectContaining({ credentials: 'bearer' }),
      });
    }

    const n = expected.length;
    await waitFor(
      async () => (await metric(app!.base, 'aegis_audit_records_written_total')) >= n,
      20_000,
      `${n} audit records written`,
    );
    if (target.live) {
      // Nothing more arrives late (a retried job would be deduplicated, never stored twice).
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await target.rows()).toHaveLength(n);
    }
    expect(await metric(app.base, 'aegis_audit_records_written_total')).toBe(n);
    expect(await metric(app.base, 'aegis_audit_write_failures_total')).toBe(0);
    await app.close();
    app = null;

    const texts = await target.rows();
    expect(texts).toHaveLength(n);
    const secretsNeverStored = [BEARER, gitea.tokens.admin, PASSWORD, LONG_PASSWORD, WRONG_BEARER];
    for (const text of texts) {
      for (const secret of secretsNeverStored) expect(text).not.toContain(secret);
    }
    const rows = texts.map((text) => JSON.parse(text) as Row);

    // Each expected call matches exactly one record, and every record is matched once.
    const unmatched = [...rows];
    for (const want of expected) {
      const index = unmatched.findIndex((row) => {
        try {
          expect(row).toMatchObject(want);
          return true;
        } catch {
          return false;
        }
      });
      if (index < 0)
        throw new Error(`no audit record for ${JSON.stringify(want)} in ${JSON.stringify(unmatched)}`);
      unmatched.splice(index, 1);
    }
    expect(unmatched).toEqual([]);

    // Common fields: unique event ids, a chain, times within the run, sizes and counts.
    expect(new Set(rows.map((r) => r.event_id)).size).toBe(n);
    expect(rows.map((r) => Number(r.seq))).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    for (const row of rows) {
      const time = Date.parse(String(row.created_at));
      expect(time).toBeGreaterThanOrEqual(started - 1000);
      expect(time).toBeLessThanOrEqual(Date.now());
      expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(typeof row.duration_ms).toBe('number');
      if (row.tool !== 'mcp.authenticate') expect(row.result_bytes).toBeGreaterThan(0);
    }
    const rawFile = rows.find((r) => r.tool === 'repoGetRawFile')!;
    expect(Number(rawFile.masks) + Number(rawFile.redactions)).toBeGreaterThan(0);
    const rawEdit = rows.find((r) => r.tool === 'gitea_api_request')!;
    expect(JSON.stringify(rawEdit.arguments)).toContain('[REDACTED]');

    // The chain verifies (npm run audit:verify).
    let out = '';
    const code = await runAuditVerify(
      { ...target.verifyEnv(), GITEA_URL: gitea.url, LOG_LEVEL: 'silent' },
      { write: (text: string) => (out += text) },
      { write: (text: string) => (out += text) },
    );
    expect(out).toContain('audit chain OK');
    expect(code).toBe(0);
  });
});
