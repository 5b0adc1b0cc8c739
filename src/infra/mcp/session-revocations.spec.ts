import { MemorySessionRevocations } from './session-revocations';

describe('MemorySessionRevocations', () => {
  it('keeps one entry per session and never more than its bound', async () => {
    let now = 0;
    const store = new MemorySessionRevocations(() => now, 3);
    await store.revoke('n1', 60);
    await store.revoke('n1', 60);
    expect(store.size).toBe(1);
    for (const n of ['n2', 'n3', 'n4', 'n5']) await store.revoke(n, 60);
    expect(store.size).toBe(3);
    // The oldest live entries went first; the newest are still ended.
    expect(await store.isRevoked('n1')).toBe(false);
    expect(await store.isRevoked('n5')).toBe(true);
    // Expired entries are dropped before live ones.
    now = 61_000;
    await store.revoke('n6', 60);
    expect(store.size).toBe(1);
    expect(await store.isRevoked('n6')).toBe(true);
  });
});
