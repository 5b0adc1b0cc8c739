import { collectBodySecrets, MAX_BODY_SECRET_DEPTH } from './body-secrets.util';

/** Wraps `leaf` so that the object holding it sits at container depth `depth` (the body is depth 1). */
function atDepth(depth: number, leaf: Record<string, unknown>): Record<string, unknown> {
  let node: Record<string, unknown> = leaf;
  for (let d = depth; d > 1; d--) node = { nested: node };
  return node;
}

describe('collectBodySecrets', () => {
  it('collects every listed field name, case-insensitively', () => {
    const fields = [
      'password',
      'secret',
      'client_secret',
      'token',
      'access_token',
      'auth_password',
      'auth_token',
      'private_key',
      'authorization_header',
      'remote_password',
      'mirror_password',
      'mirror_token',
      'aws_secret_access_key',
      'aws_access_key_id',
    ];
    const body = Object.fromEntries(fields.map((f, i) => [f, `value-${i}`]));
    expect(collectBodySecrets(body, 'createHook').sort()).toEqual(fields.map((_, i) => `value-${i}`).sort());
    expect(collectBodySecrets({ Password: 'Upper-1' }, 'x')).toEqual(['Upper-1']);
  });

  it('ignores other fields and non-string values', () => {
    expect(
      collectBodySecrets(
        { username: 'alice-long', password: 12345678, token: null, description: 'secret-ish' },
        'x',
      ),
    ).toEqual([]);
  });

  it('does not collect a 3-character password, but does collect a 4-character one', () => {
    expect(collectBodySecrets({ password: 'abc' }, 'adminCreateUser')).toEqual([]);
    expect(collectBodySecrets({ password: 'abcd' }, 'adminCreateUser')).toEqual(['abcd']);
  });

  it('collects a 3-character (and 1-character) Action secret value, never an empty one', () => {
    expect(collectBodySecrets({ data: 'abc' }, 'updateRepoSecret')).toEqual(['abc']);
    expect(collectBodySecrets({ data: 'x' }, 'updateOrgSecret')).toEqual(['x']);
    expect(collectBodySecrets({ data: 'xyz', description: 'd' }, 'updateUserSecret')).toEqual(['xyz']);
    expect(collectBodySecrets({ data: '' }, 'updateRepoSecret')).toEqual([]);
    // `data` of any other operation is not a secret.
    expect(collectBodySecrets({ data: 'abcdef' }, 'repoCreateFile')).toEqual([]);
  });

  it(`collects at depth ${MAX_BODY_SECRET_DEPTH} and not at depth ${MAX_BODY_SECRET_DEPTH + 1}`, () => {
    expect(collectBodySecrets(atDepth(8, { password: 'depth-eight' }), 'x')).toEqual(['depth-eight']);
    expect(collectBodySecrets(atDepth(9, { password: 'depth-nine' }), 'x')).toEqual([]);
    expect(collectBodySecrets({ password: 'depth-one' }, 'x')).toEqual(['depth-one']);
  });

  it('counts arrays as a level', () => {
    // body(1) -> list(2) -> object(3)
    expect(collectBodySecrets({ items: [{ token: 'in-a-list' }] }, 'x')).toEqual(['in-a-list']);
    // body(1) -> 6 nested objects (7) -> list (8) -> object (9): not collected
    const deep = atDepth(7, { list: [{ token: 'too-deep' }] });
    expect(collectBodySecrets(deep, 'x')).toEqual([]);
    const ok = atDepth(6, { list: [{ token: 'deep-enough' }] });
    expect(collectBodySecrets(ok, 'x')).toEqual(['deep-enough']);
  });

  it('survives very deep bodies without recursion', () => {
    let node: Record<string, unknown> = { password: 'bottom-secret' };
    for (let i = 0; i < 100_000; i++) node = { n: node };
    expect(collectBodySecrets({ password: 'top-secret', n: node }, 'x')).toEqual(['top-secret']);
  });

  it('returns nothing for non-object bodies', () => {
    expect(collectBodySecrets('password=abcd', 'x')).toEqual([]);
    expect(collectBodySecrets(null, 'x')).toEqual([]);
  });
});
