// Lifecycle reconciliation and ahead-of-expiry refresh as repeatable jobs, on the in-process queue
// and on BullMQ with a real Redis (TEST_REDIS_URL): a person set to prohibit-login, deactivated or
// deleted on Gitea loses their grant within one period; a healthy person keeps theirs and a
// renamed login is picked up; with two replicas on one Redis each period runs once, not twice.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Database } from '../../../src/infra/database/database';
import { BullJobQueue } from '../../../src/infra/queue/bullmq-queue';
import { InProcessJobQueue } from '../../../src/infra/queue/in-process-queue';
import type { JobQueue } from '../../../src/infra/queue/job-queue';
import { GiteaGrantJobs } from '../../../src/modules/gitea-oauth/gitea-grant.jobs';
import { IN_MEMORY_DATA_DIR, openDatabase } from '../../../src/infra/database/database';
import { grantWorld, type GrantWorld } from './grant-helpers';

const TEST_REDIS_URL = process.env.TEST_REDIS_URL?.trim() || null;

async function waitFor(predicate: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for condition');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

type QueueTarget = { name: string; create(prefix: string): JobQueue };
const targets: QueueTarget[] = [{ name: 'in-process', create: () => new InProcessJobQueue() }];
if (TEST_REDIS_URL)
  targets.push({
    name: 'bullmq',
    create: (prefix) => new BullJobQueue({ redisUrl: TEST_REDIS_URL, prefix }),
  });
else process.stderr.write('SKIPPED gitea grant jobs [bullmq]: TEST_REDIS_URL is not set\n');

const prefixes: string[] = [];
afterAll(async () => {
  if (!TEST_REDIS_URL) return;
  const redis = new Redis(TEST_REDIS_URL);
  for (const prefix of prefixes) {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
  }
  await redis.quit();
});

describe.each(targets)('Gitea grant jobs [$name]', (target) => {
  let db: Database;
  let world: GrantWorld;
  const queues: JobQueue[] = [];

  beforeAll(async () => {
    db = await openDatabase({ databaseUrl: null, dataDir: IN_MEMORY_DATA_DIR });
    await db.migrate();
    world = await grantWorld(db);
  }, 60_000);
  afterEach(async () => {
    await Promise.all(queues.splice(0).map((q) => q.close()));
  });
  afterAll(async () => {
    await world?.close();
    await db?.close();
  });

  const replica = (prefix: string, reconcileEveryMs: number, refreshEveryMs = 60_000) => {
    const queue = target.create(prefix);
    queues.push(queue);
    const grants = world.service();
    return new GiteaGrantJobs({
      queue,
      grants,
      purgeStates: async () => 0,
      reconcileEveryMs,
      refreshEveryMs,
      log: () => undefined,
    });
  };
  const newPrefix = (): string => {
    const prefix = `aegis-test-grants-${randomBytes(4).toString('hex')}`;
    prefixes.push(prefix);
    return prefix;
  };
  const admin = (path: string, method: string, body?: unknown) =>
    fetch(`${world.sim.apiUrl}${path}`, {
      method,
      headers: { Authorization: `token ${world.sim.tokens.admin}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('revokes the grant of a prohibit-login, a deactivated and a deleted account within one period, keeps the others', async () => {
    const service = world.service();
    for (const login of ['dora', 'eve', 'finn']) {
      const created = await admin('/admin/users', 'POST', {
        username: login,
        email: `${login}@example.com`,
        password: `${login}-password`,
        must_change_password: false,
      });
      expect(created.status).toBe(201);
      world.sim.passwords[login] = `${login}-password`;
    }
    const alice = await world.signIn(service, 'alice');
    const dora = await world.signIn(service, 'dora');
    const eve = await world.signIn(service, 'eve');
    const finn = await world.signIn(service, 'finn');

    const jobs = replica(newPrefix(), 300);
    const runs: unknown[] = [];
    jobs.onRun((task, result) => task === 'reconcile' && runs.push(result));
    await jobs.start();
    await waitFor(() => runs.length >= 1);

    expect(
      (await admin('/admin/users/dora', 'PATCH', { login_name: 'dora', prohibit_login: true })).status,
    ).toBe(200);
    expect((await admin('/admin/users/eve', 'PATCH', { login_name: 'eve', active: false })).status).toBe(200);
    expect((await admin('/admin/users/finn', 'DELETE')).status).toBe(204);
    const changedAt = Date.now();
    const before = runs.length;
    await waitFor(async () => {
      const statuses = await Promise.all([dora, eve, finn].map((p) => service.findGrant(p.personId)));
      return statuses.every((g) => g?.status === 'revoked');
    });
    // within one period and one run of the change
    expect(Date.now() - changedAt).toBeLessThan(300 * 2 + 5_000);
    // The run that revoked them reports when it ends, just after its last write.
    await waitFor(() => runs.length > before);
    expect((await service.findGrant(dora.personId))?.revokedReason).toBe('account_disabled');
    expect((await service.findGrant(eve.personId))?.revokedReason).toBe('account_disabled');
    expect((await service.findGrant(finn.personId))?.revokedReason).toBe('refresh_failed');
    expect((await service.findGrant(alice.personId))?.status).toBe('active');
    await expect(service.credentialFor(dora.personId)).rejects.toMatchObject({ kind: 'auth_required' });
  }, 30_000);

  it('copies a renamed login and a changed admin flag', async () => {
    const service = world.service();
    const created = await admin('/admin/users', 'POST', {
      username: 'gus',
      email: 'gus@example.com',
      password: 'gus-password',
      must_change_password: false,
    });
    expect(created.status).toBe(201);
    const gus = await world.signIn(service, 'gus');
    world.sim.state.users.find((u) => u.login === 'gus')!.login = 'gustav';
    expect((await admin('/admin/users/gustav', 'PATCH', { login_name: 'gustav', admin: true })).status).toBe(
      200,
    );
    const jobs = replica(newPrefix(), 60_000);
    await jobs.run('reconcile');
    expect(await service.findPerson(gus.personId)).toMatchObject({ login: 'gustav', isSiteAdmin: true });
  });

  it('the refresh job renews tokens ahead of expiry', async () => {
    const service = world.service({ refreshAheadMs: 50 * 60_000 });
    const { personId } = await world.signIn(service, 'bob');
    const before = (await service.findGrant(personId))!.accessExpiresAt!.getTime();
    world.sim.advanceTime(20 * 60_000); // 40 min left: inside a 50 min window
    try {
      const queue = target.create(newPrefix());
      queues.push(queue);
      const jobs = new GiteaGrantJobs({
        queue,
        grants: service,
        purgeStates: async () => 0,
        reconcileEveryMs: 60_000,
        refreshEveryMs: 200,
        log: () => undefined,
      });
      await jobs.start();
      await waitFor(async () => (await service.findGrant(personId))!.accessExpiresAt!.getTime() > before);
    } finally {
      world.sim.advanceTime(-20 * 60_000);
    }
  }, 30_000);

  // Only BullMQ has replicas to share a period; the in-process queue has no such test (not a skip).
  (target.name === 'bullmq' ? it : () => undefined)(
    'two replicas on one Redis: one run per period in total, not one per replica',
    async () => {
      const prefix = newPrefix();
      const period = 500;
      const a = replica(prefix, period);
      const b = replica(prefix, period);
      const runs: Array<{ replica: string; at: number }> = [];
      a.onRun((task) => task === 'reconcile' && runs.push({ replica: 'a', at: Date.now() }));
      b.onRun((task) => task === 'reconcile' && runs.push({ replica: 'b', at: Date.now() }));
      await a.start();
      await b.start();
      await waitFor(() => runs.length >= 1);
      const from = Date.now();
      await new Promise((resolve) => setTimeout(resolve, period * 8));
      const inWindow = runs.filter((r) => r.at >= from).length;
      // eight periods: eight runs give or take one; a scheduler per replica would give ~16
      expect(inWindow).toBeGreaterThanOrEqual(5);
      expect(inWindow).toBeLessThanOrEqual(10);
    },
    30_000,
  );
});
