// Console sessions on PGlite and PostgreSQL: only the id's hash is stored, a session ends at its
// lifetime and when idle (deleted when next seen), sign-out and "every session of a person" end it.
import {
  CONSOLE_SESSION_IDLE_MS,
  CONSOLE_SESSION_LIFETIME_MS,
} from '../../../src/core/console/console-session';
import type { Database } from '../../../src/infra/database/database';
import { ConsoleSessionStore } from '../../../src/infra/console/console-session.store';
import { describeEachDatabase } from '../database/database-targets';

describeEachDatabase('console sessions', (target) => {
  let db: Database & { dispose(): Promise<void> };
  let clock = Date.UTC(2026, 11, 1, 12, 0, 0);
  let store: ConsoleSessionStore;

  beforeAll(async () => {
    db = await target.open();
    await db.migrate();
    store = new ConsoleSessionStore(db.prisma, () => clock);
  }, 60_000);
  afterAll(async () => {
    await db?.dispose();
  });

  it('creates a session whose id is never stored, and finds it by the id', async () => {
    const { id, expiresAt } = await store.create({ personId: 'p-1', login: 'alice', isSiteAdmin: true });
    expect(expiresAt).toBe(clock + CONSOLE_SESSION_LIFETIME_MS);
    const found = await store.find(id);
    expect(found).toMatchObject({ personId: 'p-1', login: 'alice', isSiteAdmin: true, expiresAt });
    const dump = JSON.stringify(await db.prisma.$queryRawUnsafe('SELECT * FROM console_sessions'));
    expect(dump).not.toContain(id);
    expect(await store.find(`${id.slice(0, -1)}x`)).toBeNull();
  });

  it('ends an idle session, and keeps a used one alive until its lifetime', async () => {
    const idle = await store.create({ personId: 'p-2', login: 'bob', isSiteAdmin: false });
    const busy = await store.create({ personId: 'p-3', login: 'carol', isSiteAdmin: false });
    const start = clock;
    // carol uses the console every 20 minutes; bob never comes back.
    for (let t = 20 * 60_000; t < CONSOLE_SESSION_LIFETIME_MS; t += 20 * 60_000) {
      clock = start + t;
      expect(await store.find(busy.id)).not.toBeNull();
    }
    expect(clock - start).toBeGreaterThan(CONSOLE_SESSION_IDLE_MS);
    expect(await store.find(idle.id)).toBeNull();
    clock = start + CONSOLE_SESSION_LIFETIME_MS;
    expect(await store.find(busy.id)).toBeNull();
    const left = await db.prisma.$queryRawUnsafe<Array<{ login: string }>>(
      "SELECT login FROM console_sessions WHERE login IN ('bob', 'carol')",
    );
    expect(left).toEqual([]);
  });

  it('signs out one session, or every session of a person', async () => {
    const a = await store.create({ personId: 'p-4', login: 'dave', isSiteAdmin: false });
    const b = await store.create({ personId: 'p-4', login: 'dave', isSiteAdmin: false });
    const c = await store.create({ personId: 'p-5', login: 'erin', isSiteAdmin: false });
    await store.end(a.id);
    expect(await store.find(a.id)).toBeNull();
    expect(await store.find(b.id)).not.toBeNull();
    expect(await store.endAllFor('p-4')).toBe(1);
    expect(await store.find(b.id)).toBeNull();
    expect(await store.find(c.id)).not.toBeNull();
    clock += CONSOLE_SESSION_LIFETIME_MS;
    expect(await store.prune()).toBeGreaterThanOrEqual(1);
  });
});
