// Issue 15 (Catalogue): the operations a live description changes against the bundled one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSpec } from './spec-loader';
import { diffSpecs } from './spec-diff';
import type { SwaggerSpec } from './swagger-types';

// The bundled swagger, read here: the core itself does no file I/O.
const bundledText = readFileSync(join(__dirname, '../../../gitea/swagger.v1.json'), 'utf8');
const bundled = parseSpec(bundledText, 'bundled spec');

/** The bundled document, changed by `edit` on its raw JSON, parsed as the service parses it. */
function liveWith(edit: (raw: any) => void): SwaggerSpec {
  const raw = JSON.parse(bundledText);
  edit(raw);
  return parseSpec(JSON.stringify(raw), 'live');
}

describe('diffSpecs', () => {
  it('finds nothing between the bundled description and itself', () => {
    const diff = diffSpecs(bundled, parseSpec(bundledText, 'again'));
    expect(diff).toMatchObject({ added: [], removed: [], changed: [] });
    expect(diff.referenceVersion).toBe('1.27.1');
  });

  it('names a renamed operation whose route parameters are renamed too, paired by method and route', () => {
    const live = liveWith((raw) => {
      const item = raw.paths['/repos/{owner}/{repo}'];
      delete raw.paths['/repos/{owner}/{repo}'];
      for (const op of Object.values(item) as any[]) {
        if (op.operationId === 'repoDelete') op.operationId = 'repoRemove';
        for (const p of op.parameters ?? [])
          if (p.in === 'path') p.name = p.name === 'owner' ? 'username' : 'reponame';
      }
      raw.paths['/repos/{username}/{reponame}'] = item;
      raw.info.version = '1.99.0-live';
    });
    const diff = diffSpecs(bundled, live);
    expect(diff.liveVersion).toBe('1.99.0-live');
    expect(diff.added).toEqual([]);
    expect(diff.removed).toEqual([]);
    // GET, PATCH and DELETE of the route: the route changed for all three, the name for one.
    expect(diff.changed.map((c) => c.name)).toEqual(['repoEdit', 'repoGet', 'repoRemove']);
    const remove = diff.changed.find((c) => c.name === 'repoRemove')!;
    expect(remove).toMatchObject({
      method: 'DELETE',
      route: '/repos/{username}/{reponame}',
      reference: { name: 'repoDelete', method: 'DELETE', route: '/repos/{owner}/{repo}' },
    });
    expect(remove.changes).toEqual([
      { what: 'name', from: 'repoDelete', to: 'repoRemove' },
      { what: 'route', from: '/repos/{owner}/{repo}', to: '/repos/{username}/{reponame}' },
      { what: 'parameter', from: 'path owner: string, required', to: 'path username: string, required' },
      { what: 'parameter', from: 'path repo: string, required', to: 'path reponame: string, required' },
    ]);
  });

  it('lists operations added and removed, and one that moved to another route under its name', () => {
    const live = liveWith((raw) => {
      delete raw.paths['/repos/{owner}/{repo}/topics'].get; // repoListTopics
      raw.paths['/repos/{owner}/{repo}/frobnicate'] = {
        post: {
          operationId: 'repoFrobnicate',
          parameters: [
            { name: 'owner', in: 'path', required: true, type: 'string' },
            { name: 'repo', in: 'path', required: true, type: 'string' },
          ],
          responses: { '204': { description: 'done' } },
        },
      };
      // repoGetLanguages moves from /languages to /stats/languages
      raw.paths['/repos/{owner}/{repo}/stats/languages'] = raw.paths['/repos/{owner}/{repo}/languages'];
      delete raw.paths['/repos/{owner}/{repo}/languages'];
    });
    const diff = diffSpecs(bundled, live);
    expect(diff.added).toEqual([
      { name: 'repoFrobnicate', method: 'POST', route: '/repos/{owner}/{repo}/frobnicate' },
    ]);
    expect(diff.removed).toEqual([
      { name: 'repoListTopics', method: 'GET', route: '/repos/{owner}/{repo}/topics' },
    ]);
    expect(diff.changed).toEqual([
      {
        name: 'repoGetLanguages',
        method: 'GET',
        route: '/repos/{owner}/{repo}/stats/languages',
        reference: { name: 'repoGetLanguages', method: 'GET', route: '/repos/{owner}/{repo}/languages' },
        changes: [
          {
            what: 'route',
            from: '/repos/{owner}/{repo}/languages',
            to: '/repos/{owner}/{repo}/stats/languages',
          },
        ],
      },
    ]);
  });

  it('names parameters added, removed, retyped or made required, and a changed body', () => {
    const live = liveWith((raw) => {
      const list = raw.paths['/repos/{owner}/{repo}/issues'].get; // issueListIssues
      list.parameters = list.parameters.filter((p: any) => p.name !== 'milestones');
      const limit = list.parameters.find((p: any) => p.name === 'limit');
      limit.required = true;
      list.parameters.push({ name: 'assignee', in: 'query', type: 'string' });
      const page = list.parameters.find((p: any) => p.name === 'page');
      page.type = 'string';
      const create = raw.paths['/repos/{owner}/{repo}/issues'].post; // issueCreateIssue
      create.parameters.find((p: any) => p.in === 'body').schema = { $ref: '#/definitions/EditIssueOption' };
    });
    const diff = diffSpecs(bundled, live);
    expect(diff.added).toEqual([]);
    expect(diff.removed).toEqual([]);
    const list = diff.changed.find((c) => c.name === 'issueListIssues')!;
    expect(list.changes).toEqual([
      { what: 'parameter', from: null, to: 'query assignee: string, optional' },
      { what: 'parameter', from: 'query limit: integer, optional', to: 'query limit: integer, required' },
      { what: 'parameter', from: 'query milestones: string, optional', to: null },
      { what: 'parameter', from: 'query page: integer, optional', to: 'query page: string, optional' },
    ]);
    const create = diff.changed.find((c) => c.name === 'issueCreateIssue')!;
    expect(create.changes).toEqual([
      {
        what: 'body',
        from: 'body body: CreateIssueOption, optional',
        to: 'body body: EditIssueOption, optional',
      },
    ]);
    expect(diff.changed).toHaveLength(2);
  });
});
