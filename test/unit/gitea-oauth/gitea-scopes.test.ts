import { giteaScopesFor, widerAccess } from '../../../src/core/gitea-oauth';

describe('giteaScopesFor', () => {
  it('asks for explicit granular read scopes, never all or an OIDC-only set', () => {
    const read = giteaScopesFor('read');
    expect(read).toEqual([
      'read:issue',
      'read:misc',
      'read:notification',
      'read:organization',
      'read:package',
      'read:repository',
      'read:user',
    ]);
    expect(read.some((s) => s.startsWith('write:') || s === 'all' || s === 'openid')).toBe(false);
  });

  it('asks for write scopes of the same categories (Gitea: write implies read)', () => {
    expect(giteaScopesFor('write')).toEqual(giteaScopesFor('read').map((s) => s.replace('read:', 'write:')));
  });

  it('adds admin scopes only when asked', () => {
    expect(giteaScopesFor('read')).not.toContain('read:admin');
    expect(giteaScopesFor('read', { includeAdmin: true })[0]).toBe('read:admin');
    expect(giteaScopesFor('write', { includeAdmin: true })[0]).toBe('write:admin');
  });

  it('widerAccess keeps write', () => {
    expect(widerAccess('read', 'write')).toBe('write');
    expect(widerAccess('read', null)).toBe('read');
    expect(widerAccess('write', 'read')).toBe('write');
  });
});
