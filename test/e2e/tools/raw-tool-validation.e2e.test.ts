// End to end: gitea_api_request validates its query and body against the operation its path
// matches, so a bad body never reaches Gitea (issue 4), against the Gitea simulator.
import type { AuditEntry, GiteaRequest, GiteaTransport } from '../../../src/core/ports';
import { loadBundledSpec } from '../../../src/infra/gitea/spec-source';
import { buildCatalogue } from '../../../src/core/catalogue/tool-catalogue';
import { simulatedToolService, useSimulatedGitea } from './simulated-tool-service';

describe('gitea_api_request validation against the Gitea simulator', () => {
  const gitea = useSimulatedGitea();
  const sent: GiteaRequest[] = [];
  const audits: AuditEntry[] = [];

  const call = async (args: Record<string, unknown>, name = 'gitea_api_request') => {
    const transport: GiteaTransport = {
      send: (request, identity, options) => {
        sent.push(request);
        return gitea.transport.send(request, identity, options);
      },
    };
    const service = simulatedToolService({
      catalogue: buildCatalogue(loadBundledSpec(), { maxBinaryBytes: 4096 }),
      transport,
      audits,
    });
    const r = await service.callTool(name, args, gitea.alice);
    return { isError: r.isError, json: JSON.parse(r.content[0]!.text) as any };
  };
  const issueTitles = async (): Promise<string[]> => {
    const r = await call({ method: 'GET', path: '/repos/acme/widgets/issues', query: { state: 'all' } });
    expect(r.isError).toBe(false);
    return (r.json.data as Array<{ title: string }>).map((i) => i.title);
  };

  it('refuses a bad body or query before Gitea, with the generated tool’s schema path', async () => {
    const before = await issueTitles();
    sent.length = 0;

    const wrongType = await call({
      method: 'POST',
      path: '/repos/acme/widgets/issues',
      body: { title: 42, body: 'typed wrong' },
    });
    expect(wrongType.isError).toBe(true);
    expect(wrongType.json.error.kind).toBe('invalid_arguments');
    expect(wrongType.json.error.message).toContain('/body/title must be string');
    expect(wrongType.json.error.message).toContain('#/properties/body/properties/title/type');
    const generated = await call(
      { owner: 'acme', repo: 'widgets', body: { title: 42, body: 'typed wrong' } },
      'issueCreateIssue',
    );
    expect(generated.json.error.message).toContain('#/properties/body/properties/title/type');

    const missing = await call({ method: 'POST', path: '/repos/acme/widgets/issues', body: { body: 'x' } });
    expect(missing.json.error.message).toContain('/body is missing required property "title"');
    const unknownQuery = await call({
      method: 'GET',
      path: '/repos/acme/widgets/issues',
      query: { stat: 'open' },
    });
    expect(unknownQuery.json.error.message).toContain('/query has unknown property "stat"');
    const badEnum = await call({
      method: 'GET',
      path: '/repos/acme/widgets/issues',
      query: { state: 'opened' },
    });
    expect(badEnum.json.error.message).toContain('/query/state must be one of');

    expect(sent).toHaveLength(0);
    expect(audits.slice(-5).map((a) => [a.operationId, a.kind, a.status])).toEqual([
      ['issueCreateIssue', 'invalid_arguments', null],
      ['issueCreateIssue', 'invalid_arguments', null],
      ['issueCreateIssue', 'invalid_arguments', null],
      ['issueListIssues', 'invalid_arguments', null],
      ['issueListIssues', 'invalid_arguments', null],
    ]);
    expect(await issueTitles()).toEqual(before);
  });

  it('sends a valid body and query as before', async () => {
    const created = await call({
      method: 'POST',
      path: '/repos/acme/widgets/issues',
      body: { title: 'raw tool validated', body: 'created through gitea_api_request' },
    });
    expect(created.isError).toBe(false);
    expect(created.json.status).toBe(201);
    expect(created.json.data.title).toBe('raw tool validated');
    const listed = await call({
      method: 'GET',
      path: '/repos/acme/widgets/issues',
      query: { state: 'open', type: 'issues', page: 1, limit: 50 },
    });
    expect(listed.isError).toBe(false);
    expect((listed.json.data as Array<{ title: string }>).map((i) => i.title)).toContain(
      'raw tool validated',
    );
  });
});
