// The console session as an admin API credential (PGlite): no cookie -> not mine (null); an
// ended session -> 401; a change without the session's CSRF token -> 403; with it -> the person.
import { csrfTokenFor } from '../../../src/core/console/console-session';
import { IN_MEMORY_DATA_DIR, openDatabase, type Database } from '../../../src/infra/database/database';
import { ConsoleSessionStore } from '../../../src/infra/console/console-session.store';
import { ConsoleSessionAuthenticator } from '../../../src/modules/console/console-session.authenticator';

describe('ConsoleSessionAuthenticator', () => {
  let db: Database;
  let store: ConsoleSessionStore;
  let auth: ConsoleSessionAuthenticator;

  beforeAll(async () => {
    db = await openDatabase({ databaseUrl: null, dataDir: IN_MEMORY_DATA_DIR });
    await db.migrate();
    store = new ConsoleSessionStore(db.prisma);
    auth = new ConsoleSessionAuthenticator('https://mcp.example.com', store);
  }, 60_000);
  afterAll(async () => {
    await db?.close();
  });

  it('leaves requests without the console cookie to other credentials', async () => {
    expect(await auth.authenticate({ method: 'GET', headers: {} })).toBeNull();
    expect(
      await auth.authenticate({ method: 'GET', headers: { authorization: 'Bearer x', cookie: 'a=b' } }),
    ).toBeNull();
  });

  it('reads with the cookie alone, changes only with the CSRF token', async () => {
    const { id } = await store.create({ personId: 'p-1', login: 'alice', isSiteAdmin: false });
    const cookie = `__Host-aegis_console=${id}`;
    const read = await auth.authenticate({ method: 'GET', headers: { cookie } });
    expect(read).toMatchObject({
      ok: true,
      personId: 'p-1',
      principal: { login: 'alice', isSiteAdmin: false, via: 'session' },
    });
    const bare = await auth.authenticate({ method: 'PUT', headers: { cookie } });
    expect(bare).toMatchObject({ ok: false, status: 403 });
    const other = await auth.authenticate({
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrfTokenFor('x'.repeat(43)) },
    });
    expect(other).toMatchObject({ ok: false, status: 403 });
    const good = await auth.authenticate({
      method: 'PUT',
      headers: { cookie, 'x-csrf-token': csrfTokenFor(id) },
    });
    expect(good).toMatchObject({ ok: true });
  });

  it('refuses an ended session with 401', async () => {
    const { id } = await store.create({ personId: 'p-2', login: 'bob', isSiteAdmin: false });
    await store.end(id);
    expect(
      await auth.authenticate({ method: 'GET', headers: { cookie: `__Host-aegis_console=${id}` } }),
    ).toMatchObject({
      ok: false,
      status: 401,
    });
  });
});
