// Issue 17's figures, measured in process through the real call path (ToolExecutor with the real
// secret layers and bounds; Gitea answers from a fake transport with Gitea-shaped objects):
// tokens an agent reads before and after fields / cursor / table / text pages on realistic tasks,
// and discovery search top-1 / top-3 on the tuning set and, separately, on the held-out set.
// Tokens are counted with gpt-tokenizer's o200k_base encoding (the GPT-4o family's).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';
import { encode } from 'gpt-tokenizer/cjs/encoding/o200k_base';
import { loadBundledSpec } from '../../src/infra/gitea/spec-source';
import { buildCatalogue } from '../../src/core/catalogue/tool-catalogue';
import { CatalogueSearch, type DiscoveryTask } from '../../src/core/catalogue/discovery-search';
import { FusedSearch, measureRankerAccuracy } from '../../src/core/catalogue/semantic-search';
import { encoderWords, MINILM_MODEL, MiniLmEncoder } from '../../src/infra/embeddings/minilm-encoder';
import { GlobalPolicyProvider } from '../../src/core/policy/global-policy';
import * as secrets from '../../src/core/secrets';
import { createToolService } from '../../src/core/executor/tool-executor';
import type { ResultScrubber } from '../../src/core/executor/tool-service';
import type { CallIdentity, GiteaRequest, GiteaResponse } from '../../src/core/ports';
import { applyBounds } from '../../src/core/envelope/bounds';
import { UNTRUSTED_BANNER } from '../../src/core/envelope/envelope';
import { issueObject, repositoryObject } from '../upstream/fake-gitea';

// The repository root, from bench/discovery (ts) or dist/bench/discovery (compiled).
const ROOT = (() => {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
})();
const tokens = (text: string) => encode(text).length;

const identity: CallIdentity = {
  login: 'bench-svc',
  mode: 'token',
  sudo: null,
  token: 'f'.repeat(40),
  isSiteAdmin: false,
  subject: 'token:bench',
};

function pullObject(n: number): Record<string, unknown> {
  const issue = issueObject(n);
  const repo = repositoryObject();
  const branch = (ref: string, sha: string) => ({ label: ref, ref, sha, repo_id: 4242, repo });
  return {
    ...issue,
    title: `PR ${n}: make the activity feed pagination stable`,
    body: 'Fixes the duplicate item on page boundaries by ordering on (updated, id).\n\n- [x] tests\n- [x] docs',
    draft: false,
    is_locked: false,
    additions: 120 + n,
    deletions: 30,
    changed_files: 4,
    diff_url: `https://gitea.example.invalid/bench-org/bench-repo/pulls/${n}.diff`,
    patch_url: `https://gitea.example.invalid/bench-org/bench-repo/pulls/${n}.patch`,
    mergeable: true,
    merged: false,
    merged_at: null,
    merge_commit_sha: null,
    merged_by: null,
    allow_maintainer_edit: true,
    requested_reviewers: [],
    requested_reviewers_teams: [],
    review_comments: 2,
    base: branch('main', 'a'.repeat(40)),
    head: branch(`fix/feed-${n}`, 'b'.repeat(40)),
    merge_base: 'c'.repeat(40),
    pin_order: 0,
  };
}

type Fixture = (req: GiteaRequest) => { json?: unknown; text?: string; headers?: Record<string, string> };

function paged(all: unknown[], req: GiteaRequest) {
  const q = new Map(req.query);
  const page = Math.max(1, Number(q.get('page') ?? 1));
  const limit = Math.min(50, Math.max(1, Number(q.get('limit') ?? 30)));
  const last = Math.max(1, Math.ceil(all.length / limit));
  const url = (p: number) => `<https://gitea.example.invalid/api/v1${req.path}?limit=${limit}&page=${p}>`;
  const link = page < last ? `${url(page + 1)}; rel="next",${url(last)}; rel="last"` : undefined;
  return {
    json: all.slice((page - 1) * limit, page * limit),
    headers: { 'x-total-count': String(all.length), ...(link ? { link } : {}) },
  };
}

const PULLS = Array.from({ length: 30 }, (_, i) => pullObject(30 - i));
const ISSUES = Array.from({ length: 500 }, (_, i) => issueObject(500 - i));
const DIFF = (() => {
  const lines: string[] = [
    'diff --git a/src/feed.ts b/src/feed.ts',
    '--- a/src/feed.ts',
    '+++ b/src/feed.ts',
  ];
  for (let i = 0; Buffer.byteLength(lines.join('\n')) < 2 * 1024 * 1024; i++)
    lines.push(
      `@@ -${i * 3},3 +${i * 3},4 @@`,
      `-  const page${i} = items.slice(start, end);`,
      `+  const page${i} = ordered(items).slice(start, end); // stable`,
      `   return page${i};`,
    );
  return lines.join('\n') + '\n';
})();

const route: Fixture = (req) => {
  if (/\/pulls\/\d+\.diff$/.test(req.path)) return { text: DIFF };
  if (/\/pulls$/.test(req.path)) return paged(PULLS, req);
  if (/\/issues$/.test(req.path)) return paged(ISSUES, req);
  if (/\/issues\/\d+$/.test(req.path)) return { json: issueObject(7) };
  if (/\/branches$/.test(req.path)) return { json: [{ name: 'main', commit: { id: 'a'.repeat(40) } }] };
  if (req.path === '/user') return { json: { id: 7, login: 'bench-svc' } };
  if (/\/repos\/[^/]+\/[^/]+$/.test(req.path)) return { json: repositoryObject() };
  return { json: { id: 1, ok: true } };
};

const ENCODER = new MiniLmEncoder();

function service(mode: 'full' | 'discovery') {
  const scrubber: ResultScrubber = {
    collectBodySecrets: (body, op) => secrets.collectBodySecrets(body, op),
    scrubResult: (value, ctx) => secrets.scrubResult(value, ctx),
    findMaskMarker: (body, op) => secrets.findMaskMarker(body, op),
    CREDENTIAL_ISSUING_OPERATIONS: secrets.CREDENTIAL_ISSUING_OPERATIONS,
  };
  return createToolService(
    loadBundledSpec(),
    {
      // The defaults of docs/configuration.md.
      tools: {
        specSource: 'bundled',
        toolsets: [],
        mode,
        readOnly: false,
        disabledTools: [],
        allowSudo: false,
        maxResponseItems: 100,
        maxResponseChars: 100_000,
        maxBinaryBytes: 1_048_576,
      },
      secrets: { detectionMode: 'mask' },
      exactSecrets: [],
      timeoutMs: 5000,
      cursorSecret: 'bench',
    },
    {
      transport: {
        send: async (req): Promise<GiteaResponse> => {
          const r = route(req);
          return {
            status: 200,
            headers: {
              'content-type':
                r.text !== undefined ? 'text/plain; charset=utf-8' : 'application/json;charset=utf-8',
              ...(r.headers ?? {}),
            },
            body: Buffer.from(r.text ?? JSON.stringify(r.json)),
          };
        },
      },
      policy: new GlobalPolicyProvider({ disabledTools: [], detectionMode: 'mask' }),
      audit: { record: () => undefined },
      clock: { now: () => Date.now() },
      scrubber,
      // The service's default (DISCOVERY_EMBEDDINGS=on), one model for every bench service.
      sentenceEncoder: ENCODER,
      knownWords: encoderWords,
    },
  );
}

type Svc = ReturnType<typeof service>;
async function call(svc: Svc, name: string, args: unknown) {
  const r = await svc.callTool(name, args, identity);
  const text = r.content[0]!.text;
  // What the agent reads: the result, plus the call it wrote.
  return {
    text,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the envelope's shape varies per tool
    json: JSON.parse(text) as any,
    tokens: tokens(text) + tokens(JSON.stringify({ name, arguments: args })),
  };
}

export type Scenario = { task: string; before: number; after: number; note: string };

async function openPrTitles(svc: Svc): Promise<Scenario> {
  const args = { owner: 'bench-org', repo: 'bench-repo', state: 'open' };
  const before = await call(svc, 'repoListPullRequests', args);
  const after = await call(svc, 'repoListPullRequests', {
    ...args,
    fields: ['number', 'title'],
    format: 'table',
  });
  const json = await call(svc, 'repoListPullRequests', { ...args, fields: ['number', 'title'] });
  return {
    task: "list a repo's open PRs with titles only (30 PRs)",
    before: before.tokens,
    after: after.tokens,
    note: `fields ["number","title"] as JSON: ${json.tokens} tokens; with format "table": ${after.tokens}${before.json.truncated ? '; the full result was cut by the bounds' : ''}`,
  };
}

async function diffInPages(
  svc: Svc,
): Promise<Scenario & { pages: number; complete: boolean; beforeBytes: number }> {
  const args = { owner: 'bench-org', repo: 'bench-repo', index: 7, diffType: 'diff' };
  // Before issue 17: one result cut to MAX_TOOL_RESPONSE_CHARS by the bounds, no way to read on.
  const old = applyBounds(
    {
      identity: { login: identity.login, mode: identity.mode, sudo: null },
      request: { method: 'GET', path: '/repos/bench-org/bench-repo/pulls/7.diff' },
      status: 200,
      untrusted_content: UNTRUSTED_BANNER,
      data_format: 'text',
      data: DIFF,
    },
    { maxItems: 100, maxChars: 100_000 },
  );
  const cut = JSON.parse(old.text) as { data: string };
  let r = await call(svc, 'repoDownloadPullDiffOrPatch', args);
  let total = 0;
  let pages = 0;
  let text = '';
  for (;;) {
    total += r.tokens;
    pages++;
    text += r.json.data as string;
    const next = r.json.range?.next_cursor;
    if (!next) break;
    r = await call(svc, 'repoDownloadPullDiffOrPatch', { cursor: next });
  }
  const firstPage = pages ? total / pages : 0;
  return {
    task: `read a ${(Buffer.byteLength(DIFF) / 1024 / 1024).toFixed(1)} MB diff in pages`,
    before: tokens(old.text),
    after: total,
    pages,
    complete: text === DIFF,
    beforeBytes: Buffer.byteLength(String(cut.data ?? '')),
    note: `before: one result with the first ${Math.round(Buffer.byteLength(cut.data) / 1024)} KB of ${Math.round(Buffer.byteLength(DIFF) / 1024)} KB and no way to read on; after: ${pages} pages of ~${Math.round(firstPage)} tokens following range.next_cursor, the whole diff ${text === DIFF ? 'read exactly' : 'NOT read exactly'}`,
  };
}

async function walkIssues(
  svc: Svc,
): Promise<Scenario & { beforeItems: number; afterItems: number; beforeCalls: number; afterCalls: number }> {
  const base = { owner: 'bench-org', repo: 'bench-repo', state: 'open', limit: 50 };
  let before = 0;
  let beforeItems = 0;
  let beforeCalls = 0;
  for (let page = 1; page <= 10; page++) {
    const r = await call(svc, 'issueListIssues', { ...base, page });
    before += r.tokens;
    beforeItems += Array.isArray(r.json.data) ? r.json.data.length : 0;
    beforeCalls++;
  }
  let r = await call(svc, 'issueListIssues', {
    ...base,
    fields: ['number', 'title', 'state', 'labels.*.name'],
    format: 'table',
  });
  let after = 0;
  let afterItems = 0;
  let afterCalls = 0;
  for (;;) {
    after += r.tokens;
    afterItems += r.json.data.rows.length;
    afterCalls++;
    const next = r.json.pagination?.next_cursor;
    if (!next) break;
    r = await call(svc, 'issueListIssues', { cursor: next });
  }
  return {
    task: 'walk 500 issues',
    before,
    after,
    beforeItems,
    afterItems,
    beforeCalls,
    afterCalls,
    note: `before: ${beforeCalls} calls page=1..10 with limit=50, ${beforeItems} issues returned whole; after: fields number/title/state/labels.*.name, table, ${afterCalls} calls following next_cursor, ${afterItems} issues`,
  };
}

// Ten tasks as an agent would phrase them, with what each needs (written for the bench, not tuned on).
const TEN: Array<{ task: string; expected: string[]; args: Record<string, unknown> }> = [
  {
    task: 'list the open pull requests of bench-org/bench-repo',
    expected: ['repoListPullRequests'],
    args: { owner: 'bench-org', repo: 'bench-repo', state: 'open' },
  },
  {
    task: 'show issue 7 in bench-org/bench-repo',
    expected: ['issueGetIssue'],
    args: { owner: 'bench-org', repo: 'bench-repo', index: 7 },
  },
  { task: 'who am I logged in as', expected: ['userGetCurrent'], args: {} },
  {
    task: 'list the branches of bench-org/bench-repo',
    expected: ['repoListBranches'],
    args: { owner: 'bench-org', repo: 'bench-repo' },
  },
  {
    task: 'comment on issue 7',
    expected: ['issueCreateComment'],
    args: { owner: 'bench-org', repo: 'bench-repo', index: 7, body: { body: 'Looking into it.' } },
  },
  {
    task: 'close issue 7',
    expected: ['issueEditIssue'],
    args: { owner: 'bench-org', repo: 'bench-repo', index: 7, body: { state: 'closed' } },
  },
  {
    task: 'get the repository bench-org/bench-repo',
    expected: ['repoGet'],
    args: { owner: 'bench-org', repo: 'bench-repo' },
  },
  {
    task: 'star bench-org/bench-repo',
    expected: ['userCurrentPutStar'],
    args: { owner: 'bench-org', repo: 'bench-repo' },
  },
  {
    task: 'create a branch named fix-feed',
    expected: ['repoCreateBranch'],
    args: { owner: 'bench-org', repo: 'bench-repo', body: { new_branch_name: 'fix-feed' } },
  },
  {
    task: 'list open issues labelled bug',
    expected: ['issueListIssues'],
    args: { owner: 'bench-org', repo: 'bench-repo', state: 'open', labels: 'bug' },
  },
];

async function tenTasks(): Promise<Scenario & { firstHits: number; top3Hits: number }> {
  const full = service('full');
  const disc = service('discovery');
  const list = (svc: Svc) => tokens(JSON.stringify({ tools: svc.listTools() }));
  let before = list(full);
  let after = list(disc);
  let firstHits = 0;
  let top3Hits = 0;
  for (const t of TEN) {
    const direct = await call(full, t.expected[0]!, t.args);
    before += direct.tokens;
    const found = await call(disc, 'gitea_search_tools', { query: t.task, limit: 5 });
    const names: string[] = found.json.results.map((h: { name: string }) => h.name);
    const pick = names.find((n) => t.expected.includes(n)) ?? names[0]!;
    if (t.expected.includes(names[0]!)) firstHits++;
    if (names.slice(0, 3).some((n) => t.expected.includes(n))) top3Hits++;
    const described = await call(disc, 'gitea_describe_tool', { name: pick });
    const result = await call(disc, 'gitea_call_tool', { name: pick, arguments: t.args });
    after += found.tokens + described.tokens + result.tokens;
  }
  return {
    task: 'find and call the right tool for ten tasks (discovery vs full tools/list)',
    before,
    after,
    firstHits,
    top3Hits,
    note: `before: full tools/list + 10 direct calls; after: discovery tools/list + search, describe and call per task; right tool first for ${firstHits}/10, in the top 3 for ${top3Hits}/10`,
  };
}

function loadTasks(rel: string): DiscoveryTask[] {
  return JSON.parse(fs.readFileSync(path.join(ROOT, rel), 'utf8')) as DiscoveryTask[];
}

function cpuMs(u: NodeJS.CpuUsage): number {
  return (u.user + u.system) / 1000;
}

export async function searchFigures() {
  const operations = buildCatalogue(loadBundledSpec(), { maxBinaryBytes: 1 }).operations;
  const search = new CatalogueSearch(operations, { knownWords: encoderWords });
  // The service's default ranker: words fused with meaning (DISCOVERY_EMBEDDINGS=on). What its first
  // search costs (the model loads then) is measured here, in this process.
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const fused = new FusedSearch(search, operations, new MiniLmEncoder());
  await fused.search('star a repository', 3);
  const firstSearchMs = performance.now() - t0;
  const firstSearchCpuMs = cpuMs(process.cpuUsage(c0));
  const rssMb = (process.memoryUsage().rss - rss0) / 1048576;
  // 300 searches of distinct tasks (none answered from the task cache), CPU time per search.
  const probes = ['bookmark this project', 'who can push to acme/api', 'kick bob off the team', 'my tokens'];
  const runs = 75;
  const t1 = performance.now();
  const c1 = process.cpuUsage();
  for (let i = 0; i < runs; i++) for (const q of probes) await fused.search(`${q} ${i}`, 8);
  const searchCpuMs = cpuMs(process.cpuUsage(c1)) / (runs * probes.length);
  const searchMs = (performance.now() - t1) / (runs * probes.length);
  const rssAfter300Mb = (process.memoryUsage().rss - rss0) / 1048576;
  const c2 = process.cpuUsage();
  for (let i = 0; i < 20; i++) for (const q of probes) search.search(`${q} ${i}`, 8);
  const lexicalCpuMs = cpuMs(process.cpuUsage(c2)) / (20 * probes.length);
  const tuning = [
    ...loadTasks('test/unit/catalogue/discovery-tasks.json'),
    ...loadTasks('test/unit/catalogue/discovery-tasks-added.json'),
    ...loadTasks('test/unit/catalogue/discovery-tasks-added-2.json'),
  ];
  // The blind tuning set in its two halves: A (looked at while tuning) and B (only measured).
  const blind = loadTasks('test/unit/catalogue/discovery-tasks-blind.json');
  const heldoutFile = 'bench/discovery/heldout/tasks.json';
  const heldout = fs.existsSync(path.join(ROOT, heldoutFile)) ? loadTasks(heldoutFile) : [];
  // Only the counts leave this function: the held-out tasks are not printed or tuned on.
  const figures = async (ranker: typeof search | typeof fused, tasks: DiscoveryTask[]) => ({
    total: tasks.length,
    top1: (await measureRankerAccuracy(ranker, tasks, 1)).accuracy,
    top3: (await measureRankerAccuracy(ranker, tasks, 3)).accuracy,
  });
  const sets = async (ranker: typeof search | typeof fused) => ({
    tuning: await figures(ranker, tuning),
    blindA: await figures(
      ranker,
      blind.filter((_, i) => i % 2 === 0),
    ),
    blindB: await figures(
      ranker,
      blind.filter((_, i) => i % 2 === 1),
    ),
    heldout: await figures(ranker, heldout),
  });
  return {
    ...(await sets(fused)),
    lexical: await sets(search),
    embeddings: {
      model: MINILM_MODEL,
      firstSearchMs,
      firstSearchCpuMs,
      rssMb,
      rssAfter300Mb,
      searchMs,
      searchCpuMs,
      lexicalCpuMs,
      loadAverage: os.loadavg()[0],
    },
  };
}

export async function runAgentEconomyBench() {
  const svc = service('full');
  const timed = async <T>(label: string, fn: () => Promise<T> | T): Promise<T> => {
    const t0 = Date.now();
    const out = await fn();
    if (process.env.BENCH_DEBUG) console.error(`${label}: ${Date.now() - t0} ms`);
    return out;
  };
  return {
    tokenizer: 'o200k_base (gpt-tokenizer)',
    scenarios: [
      await timed('prs', () => openPrTitles(svc)),
      await timed('diff', () => diffInPages(svc)),
      await timed('issues', () => walkIssues(svc)),
      await timed('ten', () => tenTasks()),
    ],
    search: await timed('search', () => searchFigures()),
  };
}
