// The "production" sidecar configuration of the benchmark: PostgreSQL + Redis, as the Helm chart
// deploys it. BENCH_DATABASE_URL + BENCH_REDIS_URL are used as given (nothing created, nothing
// flushed). Otherwise, when TEST_DATABASE_URL + TEST_REDIS_URL are set (CI, local services), the
// run gets a scratch database of its own (created now, dropped at the end) and a dedicated Redis
// db index (BENCH_REDIS_DB, default 15), flushed before and after, so that nothing left from
// tests or an earlier run is measured and nothing of the run is left behind.
import { Redis } from 'ioredis';
import { Client as PgClient } from 'pg';

export type ProductionServices = {
  databaseUrl: string;
  redisUrl: string;
  /** Where the URLs came from, without credentials ("BENCH_*" or "scratch database ... on TEST_*"). */
  source: string;
  /** Drops the scratch database and flushes the Redis db index (no-op for BENCH_* URLs). */
  cleanup(): Promise<void>;
};

export type ProductionResolution =
  { services: ProductionServices; reason: null } | { services: null; reason: string };

const SCRATCH_PREFIX = 'aegis_bench_';
const DEFAULT_REDIS_DB = 15;

type Env = Record<string, string | undefined>;

function value(env: Env, name: string): string | null {
  const v = env[name]?.trim();
  return v ? v : null;
}

/** The URL without its password, for logs and the report. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable URL)';
  }
}

/** Same server and credentials, another database (path). */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Same Redis server, another db index (the URL path). */
export function withRedisDb(url: string, db: number): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

/** A scratch database name that carries this process id, so that leftovers of dead runs can be found. */
export function scratchName(pid: number, now: number): string {
  return `${SCRATCH_PREFIX}${pid}_${now.toString(36)}`;
}

/** The pid a scratch database name was made for, or null for any other name. */
export function scratchPid(name: string): number | null {
  const m = /^aegis_bench_(\d+)_[0-9a-z]+$/.exec(name);
  return m ? Number(m[1]) : null;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function withPg<T>(url: string, fn: (c: PgClient) => Promise<T>): Promise<T> {
  const client = new PgClient({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function flushRedisDb(url: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 5_000 });
  try {
    await redis.connect();
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
}

function errText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]?.slice(0, 160) ?? 'error';
}

export async function resolveProduction(env: Env = process.env): Promise<ProductionResolution> {
  const benchDb = value(env, 'BENCH_DATABASE_URL');
  const benchRedis = value(env, 'BENCH_REDIS_URL');
  if (benchDb && benchRedis) {
    return {
      reason: null,
      services: {
        databaseUrl: benchDb,
        redisUrl: benchRedis,
        source: `BENCH_DATABASE_URL ${redactUrl(benchDb)}, BENCH_REDIS_URL ${redactUrl(benchRedis)}`,
        cleanup: async () => undefined,
      },
    };
  }
  if (benchDb || benchRedis)
    return {
      services: null,
      reason: `only ${benchDb ? 'BENCH_DATABASE_URL' : 'BENCH_REDIS_URL'} is set: both are needed`,
    };
  const testDb = value(env, 'TEST_DATABASE_URL');
  const testRedis = value(env, 'TEST_REDIS_URL');
  if (!testDb || !testRedis)
    return {
      services: null,
      reason:
        'not measured: set BENCH_DATABASE_URL + BENCH_REDIS_URL (or TEST_DATABASE_URL + TEST_REDIS_URL)',
    };

  const redisDb = Number(value(env, 'BENCH_REDIS_DB') ?? DEFAULT_REDIS_DB);
  if (!Number.isInteger(redisDb) || redisDb < 0)
    return { services: null, reason: `BENCH_REDIS_DB is not a db index: ${String(env.BENCH_REDIS_DB)}` };
  const name = scratchName(process.pid, Date.now());
  const redisUrl = withRedisDb(testRedis, redisDb);
  try {
    await withPg(testDb, async (pg) => {
      // Scratch databases of runs that died before their cleanup (their pid is gone).
      const old = await pg.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE '${SCRATCH_PREFIX}%'`,
      );
      for (const { datname } of old.rows) {
        const pid = scratchPid(datname);
        if (pid !== null && !alive(pid))
          await pg.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => undefined);
      }
      await pg.query(`CREATE DATABASE "${name}"`);
    });
  } catch (err) {
    return { services: null, reason: `not measured: cannot create a scratch database (${errText(err)})` };
  }
  const dropDb = async (): Promise<void> => {
    await withPg(testDb, (pg) => pg.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).catch(
      () => undefined,
    );
  };
  try {
    await flushRedisDb(redisUrl);
  } catch (err) {
    await dropDb();
    return { services: null, reason: `not measured: Redis db ${redisDb} unavailable (${errText(err)})` };
  }
  let cleaned = false;
  return {
    reason: null,
    services: {
      databaseUrl: withDatabase(testDb, name),
      redisUrl,
      source: `scratch database ${name} on ${redactUrl(withDatabase(testDb, name)).replace(/\/[^/]*$/, '')}, Redis db ${redisDb} on ${redactUrl(testRedis).replace(/\/$/, '')} (from TEST_DATABASE_URL / TEST_REDIS_URL)`,
      cleanup: async () => {
        if (cleaned) return;
        cleaned = true;
        await dropDb();
        await flushRedisDb(redisUrl).catch(() => undefined);
      },
    },
  };
}

/** "PostgreSQL 15.18, Redis 7.0.15" (server versions, for the report); best effort. */
export async function describeServers(services: ProductionServices): Promise<string> {
  let pgVersion = '?';
  let redisVersion = '?';
  try {
    pgVersion = await withPg(services.databaseUrl, async (pg) => {
      const r = await pg.query<{ server_version: string }>('SHOW server_version');
      return (r.rows[0]?.server_version ?? '?').split(' ')[0] ?? '?';
    });
  } catch {
    // the version is a nicety; the sidecar start reports real connection problems
  }
  const redis = new Redis(services.redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 5_000,
  });
  try {
    await redis.connect();
    const info = await redis.info('server');
    redisVersion = /redis_version:([^\r\n]+)/.exec(info)?.[1] ?? '?';
  } catch {
    // same as above
  } finally {
    redis.disconnect();
  }
  return `PostgreSQL ${pgVersion} + Redis ${redisVersion}`;
}

/** The production services, or an error naming why they are not there (a bench's `--production`). */
export async function requireProduction(env: Env = process.env): Promise<ProductionServices> {
  const resolved = await resolveProduction(env);
  if (!resolved.services) throw new Error(`--production: ${resolved.reason}`);
  return resolved.services;
}
