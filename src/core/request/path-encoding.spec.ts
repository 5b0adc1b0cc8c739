import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSpec } from '../catalogue/spec-loader';
import { buildCatalogue } from '../catalogue/tool-catalogue';
import { RouteMatcher } from '../catalogue/route-matcher';
import { buildPath, encodePathValue, PathValueError, WILDCARD_PARAMS } from './path-encoding';

// The bundled swagger, read here: the core itself does no file I/O (src/infra/gitea/spec-source.ts).
const loadBundledSpec = () =>
  parseSpec(readFileSync(join(__dirname, '../../../gitea/swagger.v1.json'), 'utf8'), 'bundled spec');

const R = '/repos/{owner}/{repo}';

describe('path encoding keyed on route and parameter', () => {
  const wildcardCases: Array<[string, string, string, string]> = [
    [`${R}/branches/{branch}`, 'branch', 'feature/x y', '/repos/o/r/branches/feature/x%20y'],
    [`${R}/tags/{tag}`, 'tag', 'rel/1.0', '/repos/o/r/tags/rel/1.0'],
    [
      `${R}/contents/{filepath}`,
      'filepath',
      'docs/a b/readme.md',
      '/repos/o/r/contents/docs/a%20b/readme.md',
    ],
    [`${R}/contents-ext/{filepath}`, 'filepath', 'src/main.ts', '/repos/o/r/contents-ext/src/main.ts'],
    [`${R}/raw/{filepath}`, 'filepath', 'img/logo#1.png', '/repos/o/r/raw/img/logo%231.png'],
    [`${R}/media/{filepath}`, 'filepath', 'big/file?.bin', '/repos/o/r/media/big/file%3F.bin'],
    [`${R}/compare/{basehead}`, 'basehead', 'main...feature/x', '/repos/o/r/compare/main...feature/x'],
    [`${R}/git/refs/{ref}`, 'ref', 'heads/feature/x', '/repos/o/r/git/refs/heads/feature/x'],
    [`${R}/commits/{ref}/status`, 'ref', 'feature/x', '/repos/o/r/commits/feature/x/status'],
    [`${R}/commits/{ref}/statuses`, 'ref', 'feature/x', '/repos/o/r/commits/feature/x/statuses'],
  ];

  it.each(wildcardCases)('%s keeps "/" in %s', (route, param, value, expected) => {
    expect(buildPath(route, { owner: 'o', repo: 'r', [param]: value })).toBe(expected);
  });

  it.each(wildcardCases)('%s rejects "." and ".." segments in %s', (route, param) => {
    for (const bad of ['../secret', 'a/./b', 'a/..', '.', 'a//b', '/a', 'a/']) {
      expect(() => buildPath(route, { owner: 'o', repo: 'r', [param]: bad })).toThrow(PathValueError);
    }
  });

  it('pulls/{base}/{head}: head is the wildcard, a "/" in base is %2F', () => {
    expect(
      buildPath(`${R}/pulls/{base}/{head}`, { owner: 'o', repo: 'r', base: 'release/1', head: 'feature/x' }),
    ).toBe('/repos/o/r/pulls/release%2F1/feature/x');
    expect(() =>
      buildPath(`${R}/pulls/{base}/{head}`, { owner: 'o', repo: 'r', base: 'main', head: 'a/../b' }),
    ).toThrow(PathValueError);
  });

  it('releases/tags/{tag} is single-segment: rel/1.0 -> rel%2F1.0', () => {
    expect(buildPath(`${R}/releases/tags/{tag}`, { owner: 'o', repo: 'r', tag: 'rel/1.0' })).toBe(
      '/repos/o/r/releases/tags/rel%2F1.0',
    );
  });

  it('editorconfig/{filepath} is single-segment: a/b.c -> a%2Fb.c', () => {
    expect(buildPath(`${R}/editorconfig/{filepath}`, { owner: 'o', repo: 'r', filepath: 'src/x.ts' })).toBe(
      '/repos/o/r/editorconfig/src%2Fx.ts',
    );
  });

  it('the decision is not keyed on the parameter name: {ref} elsewhere and {owner} get %2F', () => {
    expect(
      buildPath('/repos/{owner}/{repo}/git/commits/{sha}', { owner: 'a/b', repo: 'r', sha: 'x/y' }),
    ).toBe('/repos/a%2Fb/r/git/commits/x%2Fy');
    expect(encodePathValue(`${R}/branches/{branch}`, 'owner', 'o/x')).toBe('o%2Fx');
  });

  it('escapes reserved characters in single segments and refuses . and ..', () => {
    expect(encodePathValue('/x/{a}', 'a', "a b?#%&'()*")).toBe('a%20b%3F%23%25%26%27%28%29%2A');
    expect(() => encodePathValue('/x/{a}', 'a', '..')).toThrow(PathValueError);
    expect(() => encodePathValue('/x/{a}', 'a', '')).toThrow(PathValueError);
  });

  it('every wildcard route exists in the bundled spec', () => {
    const spec = loadBundledSpec();
    for (const [route, params] of WILDCARD_PARAMS) {
      expect(spec.paths[route]).toBeDefined();
      for (const p of params) expect(route).toContain(`{${p}}`);
    }
  });
});

describe('RouteMatcher (raw tool path -> operation)', () => {
  const catalogue = buildCatalogue(loadBundledSpec(), { maxBinaryBytes: 1024 });
  const matcher = new RouteMatcher(catalogue.operations);
  const m = (method: 'GET' | 'DELETE' | 'POST', path: string) =>
    matcher.match(method, path.slice(1).split('/'));

  it('maps wildcard and literal routes to the operation Gitea would route to', () => {
    expect(m('GET', '/repos/o/r/branches/feature/x')).toMatchObject({
      op: { operationId: 'repoGetBranch' },
      params: { branch: 'feature/x' },
    });
    expect(m('DELETE', '/repos/o/r/branches/a/b')!.op.operationId).toBe('repoDeleteBranch');
    expect(m('GET', '/repos/o/r/pulls/3/files')!.op.operationId).toBe('repoGetPullRequestFiles');
    expect(m('GET', '/repos/o/r/pulls/main/feature/x')).toMatchObject({
      op: { operationId: 'repoGetPullRequestByBaseHead' },
      params: { base: 'main', head: 'feature/x' },
    });
    expect(m('GET', '/repos/o/r/commits/feature/x/statuses')).toMatchObject({
      op: { operationId: 'repoListStatusesByRef' },
      params: { ref: 'feature/x' },
    });
    expect(m('GET', '/repos/o/r/pulls/7.diff')).toMatchObject({
      op: { operationId: 'repoDownloadPullDiffOrPatch' },
      params: { index: '7', diffType: 'diff' },
    });
    expect(m('GET', '/user')!.op.operationId).toBe('userGetCurrent');
    expect(m('GET', '/repos/o/r/contents/a/b/c.md')!.op.operationId).toBe('repoGetContents');
    expect(m('GET', '/no/such/route')).toBeNull();
    expect(m('POST', '/user')).toBeNull();
  });
});
