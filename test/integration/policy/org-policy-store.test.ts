// Issue 14 point 1: org policies and their history on PGlite and PostgreSQL (same migration, same
// repository code): versions, absent fields kept, before/after history, concurrent changes.
import type { Database } from '../../../src/infra/database/database';
import { OrgPolicyRepository, type PolicyDb } from '../../../src/infra/policy/org-policy.repository';
import { describeEachDatabase } from '../database/database-targets';

describeEachDatabase('org policy store', (target) => {
  let db: Database & { dispose(): Promise<void> };
  let repo: OrgPolicyRepository;

  beforeAll(async () => {
    db = await target.open();
    await db.migrate();
    repo = new OrgPolicyRepository(db.sql satisfies PolicyDb); // what the service uses
  }, 60_000);
  afterAll(async () => {
    await db?.dispose();
  });

  it('has no policy for an org that never set one', async () => {
    expect(await repo.get('nobody')).toBeNull();
  });

  it('creates version 1, keeps absent fields on the next change, and records who, when, before and after', async () => {
    const first = await repo.update(
      'Acme',
      {
        disabledTools: ['repoDelete', 'admin*'],
        secretDetectionMode: 'block',
        allowedRepos: ['widgets'],
        quotas: { toolCallsPerMinute: 10 },
      },
      { login: 'alice', role: 'org_owner' },
    );
    expect(first.before).toBeNull();
    expect(first.after).toMatchObject({
      org: 'acme',
      disabledTools: ['repoDelete', 'admin*'],
      secretDetectionMode: 'block',
      readOnly: false,
      allowedRepos: ['widgets'],
      quotas: { toolCallsPerMinute: 10, writeCallsPerHour: null },
      version: 1,
      updatedBy: 'alice',
    });
    const second = await repo.update(
      'acme',
      { readOnly: true, allowedRepos: null },
      { login: 'admin-token', role: 'site_admin' },
    );
    expect(second.before?.version).toBe(1);
    expect(second.after).toMatchObject({
      disabledTools: ['repoDelete', 'admin*'],
      secretDetectionMode: 'block',
      readOnly: true,
      allowedRepos: null,
      quotas: { toolCallsPerMinute: 10, writeCallsPerHour: null },
      version: 2,
      updatedBy: 'admin-token',
    });
    expect(await repo.get('ACME')).toEqual(second.after);

    const history = await repo.history('acme', { limit: 10 });
    expect(history.map((h) => [h.version, h.changedBy, h.role])).toEqual([
      [2, 'admin-token', 'site_admin'],
      [1, 'alice', 'org_owner'],
    ]);
    expect(history[0]!.before).toMatchObject({ read_only: false, allowed_repos: ['widgets'], version: 1 });
    expect(history[0]!.after).toMatchObject({ read_only: true, allowed_repos: null, version: 2 });
    expect(history[1]!.before).toBeNull();
    expect(Date.parse(history[0]!.changedAt)).toBeGreaterThan(Date.now() - 60_000);
    const older = await repo.history('acme', { limit: 10, before: history[0]!.id });
    expect(older.map((h) => h.version)).toEqual([1]);
    expect((await repo.list()).map((p) => p.org)).toContain('acme');
  });

  it('gives concurrent changes distinct versions and loses none of them', async () => {
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        repo.update('race', { quotas: { toolCallsPerMinute: n } }, { login: `u${n}`, role: 'site_admin' }),
      ),
    );
    expect(results.map((r) => r.after.version).sort()).toEqual([1, 2, 3, 4, 5]);
    const history = await repo.history('race', { limit: 10 });
    expect(history.map((h) => h.version)).toEqual([5, 4, 3, 2, 1]);
    // each change's "before" is the previous version's "after"
    for (let i = 0; i < history.length - 1; i += 1) expect(history[i]!.before).toEqual(history[i + 1]!.after);
  });
});
