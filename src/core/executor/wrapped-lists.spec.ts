// Every operation that takes page/limit carries `pagination` (ADR 0005) and has its list bounded by
// MAX_TOOL_RESPONSE_ITEMS, whether Gitea answers with a bare array or an object that wraps it.
import type { CallIdentity, GiteaRequest, GiteaResponse } from '../ports';
import { type CatalogueOperation } from '../catalogue/tool-catalogue';
import { listIn } from '../envelope/envelope';
import { bundledCatalogue, testToolService } from '../testing/tool-service-fixture';

const catalogue = bundledCatalogue(1000);
const identity: CallIdentity = {
  login: 'alice',
  mode: 'oauth',
  sudo: null,
  token: 'tok-0123456789abcdef',
  isSiteAdmin: true,
  subject: 'oauth:1',
};
const MAX_ITEMS = 5;
const LIMIT = 10;
const TOTAL = 40;
const PAGINATION_KEYS = ['page', 'limit', 'total_count', 'next_page', 'last_page'];

type Reply = (req: GiteaRequest) => Partial<GiteaResponse> & { json: unknown };

// One service per size limit (building one indexes the whole catalogue); each test sets the reply.
const services = new Map<number, ReturnType<typeof build>>();
function service(reply: Reply, maxChars = 200_000) {
  const built = services.get(maxChars) ?? build(maxChars);
  services.set(maxChars, built);
  built.reply = reply;
  return built.call;
}

function build(maxChars: number) {
  const state: { reply: Reply; call: (name: string, args: Record<string, unknown>) => Promise<any> } = {
    reply: () => ({ json: null }),
    call: async () => null,
  };
  const t = testToolService({
    catalogue,
    tools: { maxResponseItems: MAX_ITEMS, maxResponseChars: maxChars, maxBinaryBytes: 1000 },
    reply: (req) => {
      const { status: _status, ...r } = state.reply(req);
      return r;
    },
  });
  state.call = async (name, args) => {
    const { isError, json } = await t.callAs(identity, name, args);
    return { isError, json };
  };
  return state;
}

/** The smallest arguments the tool's own schema accepts, plus page 1 and the page size. */
function argsFor(op: CatalogueOperation): Record<string, unknown> {
  const schema = op.tool.inputSchema as { properties: Record<string, any>; required?: string[] };
  const args: Record<string, unknown> = {};
  for (const name of schema.required ?? []) {
    const p = schema.properties[name] ?? {};
    if (p.enum) args[name] = p.enum[0];
    else if (p.type === 'integer' || p.type === 'number') args[name] = 1;
    else if (p.type === 'boolean') args[name] = true;
    else if (p.type === 'array') args[name] = ['x'];
    else if (p.type === 'object') args[name] = {};
    else args[name] = 'x';
  }
  if (op.paging?.page) args[op.paging.page] = 1;
  if (op.paging?.limit) args[op.paging.limit] = LIMIT;
  return args;
}

/** A page of LIMIT items as Gitea sends it: the array, or the wrapper with its list and counter. */
function bodyFor(op: CatalogueOperation, withCounter: boolean): unknown {
  const items = Array.from({ length: LIMIT }, (_, i) => ({ id: i + 1 }));
  if (op.listResult) return items;
  const body: Record<string, unknown> = { [op.listField!]: items };
  if (withCounter && op.countField) body[op.countField] = TOTAL;
  return body;
}

const paged = catalogue.operations.filter((op) => op.paging !== null);
const wrapped = paged.filter((op) => !op.listResult);

describe('lists wrapped in an object (issue 11)', () => {
  it('reads where each paged operation keeps its list off the swagger response schema', () => {
    expect(paged.length).toBeGreaterThan(100);
    // Every paged operation answers with a list: bare, or in the one array property of its object.
    for (const op of paged)
      expect([op.operationId, op.listResult || op.listField !== null]).toEqual([op.operationId, true]);
    const fields = Object.fromEntries(wrapped.map((op) => [op.operationId, [op.listField, op.countField]]));
    expect(wrapped.length).toBeGreaterThanOrEqual(20);
    expect(fields).toMatchObject({
      repoSearch: ['data', null],
      userSearch: ['data', null],
      teamSearch: ['data', null],
      topicSearch: ['topics', null],
      repoListTopics: ['topics', null],
      getWorkflowRuns: ['workflow_runs', 'total_count'],
      listWorkflowRunJobs: ['jobs', 'total_count'],
      GetTree: ['tree', 'total_count'],
      repoGetCombinedStatusByRef: ['statuses', 'total_count'],
      repoGetWikiPageRevisions: ['commits', 'count'],
    });
    expect(catalogue.byName.get('GetTree')!.paging).toEqual({ page: 'page', limit: 'per_page' });
  });

  it.each(paged.map((op) => [op.operationId, op] as const))(
    '%s: pagination from X-Total-Count and Link, list cut to MAX_TOOL_RESPONSE_ITEMS',
    async (name, op) => {
      const call = service(() => ({
        json: bodyFor(op, false),
        headers: {
          'x-total-count': String(TOTAL),
          link: `<http://g/api/v1/x?page=2&limit=${LIMIT}>; rel="next",<http://g/api/v1/x?page=4&limit=${LIMIT}>; rel="last"`,
        },
      }));
      const r = await call(name, argsFor(op));
      expect([name, r.isError, r.json.error]).toEqual([name, false, undefined]);
      expect(Object.keys(r.json).slice(0, 4)).toEqual(['identity', 'request', 'status', 'pagination']);
      expect(r.json.pagination).toEqual({
        page: 1,
        limit: LIMIT,
        total_count: TOTAL,
        next_page: 2,
        last_page: 4,
        next_cursor: expect.any(String),
      });
      expect(listIn(r.json.data, op.listField)).toHaveLength(MAX_ITEMS);
      const path = op.listResult ? '/' : `/${op.listField}`;
      expect(r.json.truncated.items).toContainEqual({ path, returned: MAX_ITEMS, total: LIMIT });
    },
  );

  it.each(paged.map((op) => [op.operationId, op] as const))(
    '%s: pagination even without paging headers',
    async (name, op) => {
      const call = service(() => ({ json: bodyFor(op, false) }));
      const r = await call(name, argsFor(op));
      expect(r.isError).toBe(false);
      expect(Object.keys(r.json.pagination ?? {})).toEqual(PAGINATION_KEYS);
      expect(r.json.pagination.page).toBe(1);
    },
  );

  it.each(wrapped.filter((op) => op.countField).map((op) => [op.operationId, op] as const))(
    '%s: pagination from the counter Gitea puts in the body',
    async (name, op) => {
      const call = service(() => ({ json: bodyFor(op, true) }));
      const r = await call(name, argsFor(op));
      expect(r.json.pagination.total_count).toBe(TOTAL);
      if (op.paging!.limit) {
        expect(r.json.pagination).toMatchObject({ limit: LIMIT, next_page: 2, last_page: 4 });
        expect(r.json.pagination.next_cursor).toEqual(expect.any(String));
      }
    },
  );

  it('keeps whole items of a wrapped list under MAX_TOOL_RESPONSE_CHARS, and its wrapper', async () => {
    const op = catalogue.byName.get('getWorkflowRuns')!;
    const runs = Array.from({ length: 5 }, (_, i) => ({ id: i + 1, display_title: 'x'.repeat(900) }));
    const call = service(() => ({ json: { total_count: TOTAL, workflow_runs: runs } }), 3000);
    const r = await call(op.operationId, { owner: 'o', repo: 'r', page: 1, limit: 5 });
    expect(r.isError).toBe(false);
    expect(r.json.data.total_count).toBe(TOTAL);
    const kept = r.json.data.workflow_runs as unknown[];
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(5);
    expect(r.json.truncated.chars).toMatchObject({ returned_items: kept.length, total_items: 5 });
    // The cursor continues after the last item shown, not after the whole page.
    expect(r.json.pagination.next_cursor).toEqual(expect.any(String));
  });
});
