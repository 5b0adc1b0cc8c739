// Search over the catalogue for discovery mode. Agents describe tasks in their own words
// ("close this ticket", "list my PRs"), so queries are expanded with synonyms and verbs are
// matched to HTTP methods before a weighted term score ranks the operations.
import type { CatalogueOperation } from './tool-catalogue';

export type SearchHit = { name: string; title: string; method: string; path: string; score: number };

const STOP = new Set([
  'a',
  'an',
  'the',
  'this',
  'that',
  'these',
  'those',
  'to',
  'of',
  'for',
  'in',
  'on',
  'at',
  'by',
  'with',
  'from',
  'and',
  'or',
  'is',
  'are',
  'be',
  'it',
  'its',
  'please',
  'can',
  'you',
  'some',
  'do',
  'does',
  'how',
  'what',
  'which',
  'i',
  'am',
  'into',
  'as',
  'one',
  'via',
  'using',
  'should',
  'would',
  'want',
  'need',
  'we',
  'our',
  'there',
]);

// Query word -> catalogue words (after stemming) it stands for.
const SYNONYMS: Record<string, string[]> = {
  pr: ['pull'],
  prs: ['pull'],
  pullrequest: ['pull'],
  mr: ['pull'],
  mrs: ['pull'],
  merge_request: ['pull'],
  ticket: ['issue'],
  bug: ['issue'],
  task: ['issue'],
  todo: ['issue'],
  close: ['edit', 'state'],
  reopen: ['edit', 'state'],
  closed: ['state'],
  ci: ['action', 'workflow'],
  pipeline: ['workflow', 'run', 'action'],
  build: ['workflow', 'run'],
  job: ['job', 'workflow'],
  variable: ['variable'],
  var: ['variable'],
  env: ['variable'],
  me: ['current', 'authenticated'],
  my: ['current', 'authenticated'],
  mine: ['current'],
  myself: ['current', 'authenticated'],
  who: ['current', 'authenticated', 'user'],
  whoami: ['current', 'authenticated', 'user'],
  logged: ['authenticated', 'current'],
  remove: ['delete'],
  drop: ['delete'],
  erase: ['delete'],
  destroy: ['delete'],
  rm: ['delete'],
  del: ['delete'],
  kill: ['delete'],
  unassign: ['delete'],
  add: ['create', 'add'],
  new: ['create'],
  make: ['create'],
  open: ['create', 'issue'],
  start: ['create'],
  post: ['create'],
  write: ['create', 'update'],
  register: ['create'],
  upload: ['create', 'attachment'],
  show: ['get', 'list'],
  fetch: ['get'],
  read: ['get', 'content'],
  view: ['get'],
  see: ['get', 'list'],
  display: ['get'],
  retrieve: ['get'],
  look: ['get'],
  details: ['get'],
  info: ['get'],
  all: ['list'],
  every: ['list'],
  enumerate: ['list'],
  change: ['edit', 'update'],
  modify: ['edit', 'update'],
  set: ['edit', 'update'],
  update: ['update', 'edit'],
  patch: ['edit'],
  rename: ['rename', 'edit'],
  repository: ['repo'],
  repositories: ['repo'],
  project: ['repo'],
  repo: ['repo'],
  repos: ['repo'],
  file: ['content', 'file', 'raw'],
  files: ['content', 'file'],
  source: ['content'],
  code: ['content'],
  folder: ['content'],
  directory: ['content'],
  dir: ['content'],
  note: ['comment'],
  reply: ['comment'],
  comment: ['comment'],
  organisation: ['org'],
  organization: ['org'],
  company: ['org'],
  teams: ['team'],
  webhook: ['hook'],
  webhooks: ['hook'],
  hook: ['hook'],
  callback: ['hook'],
  ssh: ['key'],
  deploy: ['deploy', 'key'],
  gpg: ['gpg', 'key'],
  approve: ['review'],
  approval: ['review'],
  reviewer: ['review', 'reviewer'],
  runner: ['runner'],
  runners: ['runner'],
  workflow: ['workflow'],
  dispatch: ['dispatch'],
  token: ['token'],
  pat: ['token'],
  credential: ['token'],
  star: ['star'],
  favorite: ['star'],
  favourite: ['star'],
  bookmark: ['star'],
  watch: ['subscription', 'watch'],
  subscribe: ['subscription'],
  find: ['search'],
  search: ['search'],
  lookup: ['search'],
  query: ['search'],
  version: ['version', 'release'],
  release: ['release'],
  tag: ['tag'],
  label: ['label'],
  tags: ['tag'],
  milestone: ['milestone'],
  sprint: ['milestone'],
  email: ['email'],
  mail: ['email'],
  avatar: ['avatar'],
  profile: ['user', 'current'],
  account: ['user'],
  fork: ['fork'],
  clone: ['fork'],
  mirror: ['mirror'],
  collaborator: ['collaborator'],
  member: ['member'],
  members: ['member'],
  notification: ['notification', 'notify'],
  notifications: ['notification', 'notify'],
  inbox: ['notification', 'notify'],
  unread: ['notification'],
  merge: ['merge'],
  merged: ['merge'],
  diff: ['diff', 'compare'],
  compare: ['compare'],
  patchfile: ['diff'],
  history: ['commit'],
  log: ['commit'],
  commits: ['commit'],
  sha: ['commit'],
  status: ['status'],
  check: ['status', 'check'],
  checks: ['status'],
  time: ['time', 'tracked'],
  timer: ['stopwatch', 'time'],
  stopwatch: ['stopwatch'],
  spent: ['time', 'tracked'],
  package: ['package'],
  packages: ['package'],
  artifact: ['artifact'],
  artifacts: ['artifact'],
  wiki: ['wiki'],
  page: ['page'],
  secret: ['secret'],
  secrets: ['secret'],
  protect: ['protection'],
  protection: ['protection'],
  protected: ['protection'],
  assign: ['assignee', 'edit'],
  assignee: ['assignee'],
  assigned: ['assignee'],
  reaction: ['reaction'],
  emoji: ['reaction'],
  react: ['reaction'],
  transfer: ['transfer'],
  archive: ['archive'],
  download: ['archive', 'download', 'raw'],
  zip: ['archive'],
  block: ['block'],
  unblock: ['unblock'],
  follow: ['follow'],
  follows: ['follower'],
  following: ['following'],
  follower: ['follower'],
  followers: ['follower'],
  topic: ['topic'],
  topics: ['topic'],
  language: ['language'],
  languages: ['language'],
  markdown: ['markdown', 'render'],
  render: ['render'],
  preview: ['render'],
  admin: ['admin'],
  cron: ['cron'],
  server: ['version', 'setting'],
  settings: ['setting'],
  heatmap: ['heatmap'],
  activity: ['activity', 'feed'],
  feed: ['feed'],
};

const VERB_METHOD: Record<string, string> = {
  delete: 'DELETE',
  remove: 'DELETE',
  drop: 'DELETE',
  erase: 'DELETE',
  destroy: 'DELETE',
  unassign: 'DELETE',
  create: 'POST',
  add: 'POST',
  new: 'POST',
  make: 'POST',
  open: 'POST',
  post: 'POST',
  upload: 'POST',
  register: 'POST',
  list: 'GET',
  get: 'GET',
  show: 'GET',
  fetch: 'GET',
  read: 'GET',
  view: 'GET',
  see: 'GET',
  find: 'GET',
  search: 'GET',
  download: 'GET',
  which: 'GET',
  who: 'GET',
  whoami: 'GET',
  edit: 'PATCH',
  update: 'PATCH',
  change: 'PATCH',
  modify: 'PATCH',
  rename: 'PATCH',
  close: 'PATCH',
  reopen: 'PATCH',
  set: 'PATCH',
};

export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 4 && /(ches|shes|xes|sses)$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) w = w.slice(0, -1);
  return w;
}

export function splitWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

type Doc = { op: CatalogueOperation; fields: Array<{ terms: Set<string>; weight: number }>; length: number };

const FIELD_WEIGHTS = { id: 3, summary: 2, path: 1.5, tags: 0.5, description: 0.4 };

export class CatalogueSearch {
  private readonly docs: Doc[];
  private readonly idf = new Map<string, number>();

  constructor(operations: CatalogueOperation[]) {
    this.docs = operations.map((op) => {
      const pathWords = op.route
        .split('/')
        .filter((s) => s && !s.startsWith('{'))
        .flatMap(splitWords);
      const fields = [
        { terms: new Set(splitWords(op.operationId).map(stem)), weight: FIELD_WEIGHTS.id },
        {
          terms: new Set(
            splitWords(op.summary)
              .filter((w) => !STOP.has(w))
              .map(stem),
          ),
          weight: FIELD_WEIGHTS.summary,
        },
        { terms: new Set(pathWords.map(stem)), weight: FIELD_WEIGHTS.path },
        { terms: new Set(op.tags.flatMap(splitWords).map(stem)), weight: FIELD_WEIGHTS.tags },
        {
          terms: new Set(
            splitWords(op.description)
              .filter((w) => !STOP.has(w))
              .map(stem),
          ),
          weight: FIELD_WEIGHTS.description,
        },
      ];
      return { op, fields, length: splitWords(op.operationId).length };
    });
    const df = new Map<string, number>();
    for (const doc of this.docs) {
      const all = new Set(doc.fields.flatMap((f) => [...f.terms]));
      for (const t of all) df.set(t, (df.get(t) ?? 0) + 1);
    }
    const n = this.docs.length;
    for (const [t, count] of df) this.idf.set(t, Math.log(1 + (n - count + 0.5) / (count + 0.5)));
  }

  /** Expanded, weighted query terms and the HTTP method the wording implies (if any). */
  static expand(query: string): { terms: Map<string, number>; method: string | null; current: boolean } {
    const words = query
      .slice(0, 500)
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean);
    const terms = new Map<string, number>();
    let method: string | null = null;
    let current = false;
    const add = (t: string, w: number) => terms.set(t, Math.max(terms.get(t) ?? 0, w));
    for (const word of words) {
      if (!method && VERB_METHOD[word]) method = VERB_METHOD[word] ?? null;
      if (['my', 'me', 'mine', 'myself', 'am', 'whoami'].includes(word)) current = true;
      if (STOP.has(word) && !SYNONYMS[word]) continue;
      const synonyms = (SYNONYMS[word] ?? []).map(stem);
      const pronoun = ['my', 'me', 'mine', 'myself'].includes(word);
      // A word that only stands for other terms ("new" -> create) counts less literally.
      add(stem(word), synonyms.length && !synonyms.includes(stem(word)) ? 0.5 : 1);
      for (const syn of synonyms) add(syn, pronoun ? 0.3 : 1);
    }
    return { terms, method, current };
  }

  search(query: string, limit = 8, allowed?: (op: CatalogueOperation) => boolean): SearchHit[] {
    const { terms, method, current } = CatalogueSearch.expand(query);
    if (!terms.size) return [];
    const scored: Array<{ op: CatalogueOperation; score: number }> = [];
    for (const doc of this.docs) {
      if (allowed && !allowed(doc.op)) continue;
      let score = 0;
      let matched = 0;
      for (const [term, weight] of terms) {
        let best = 0;
        for (const field of doc.fields) if (field.terms.has(term) && field.weight > best) best = field.weight;
        if (best > 0) {
          matched++;
          score += weight * best * (this.idf.get(term) ?? 0);
        }
      }
      if (score <= 0) continue;
      score *= 0.6 + (0.4 * matched) / terms.size;
      if (method && doc.op.method === method) score *= 1.35;
      else if (method === 'PATCH' && doc.op.method === 'PUT') score *= 1.1;
      if (method === 'GET' && doc.op.method !== 'GET') score *= 0.8;
      const id = doc.op.operationId.toLowerCase();
      if (current && (id.includes('current') || id === 'usergetcurrent')) score *= 1.15;
      if (!current && id.includes('current')) score *= 0.9;
      // Shorter, more general operations first when scores tie; deprecated/admin variants later.
      score *= 1 / (1 + 0.03 * doc.length);
      if (!terms.has('admin') && id.startsWith('admin')) score *= 0.8;
      scored.push({ op: doc.op, score });
    }
    scored.sort((a, b) => b.score - a.score || a.op.operationId.localeCompare(b.op.operationId));
    return scored.slice(0, Math.max(1, Math.min(limit, 50))).map(({ op, score }) => ({
      name: op.operationId,
      title: op.summary || op.operationId,
      method: op.method,
      path: op.route,
      score: Math.round(score * 100) / 100,
    }));
  }
}

export type DiscoveryTask = { task: string; expected: string[] };

/** Top-k accuracy of the search on a task list (a task counts when any expected operation is in the top k). */
export function measureSearchAccuracy(
  search: CatalogueSearch,
  tasks: DiscoveryTask[],
  k = 3,
): {
  accuracy: number;
  total: number;
  hits: number;
  misses: Array<{ task: string; expected: string[]; got: string[] }>;
} {
  const misses: Array<{ task: string; expected: string[]; got: string[] }> = [];
  let hits = 0;
  for (const t of tasks) {
    const got = search.search(t.task, k).map((h) => h.name);
    if (got.some((name) => t.expected.includes(name))) hits++;
    else misses.push({ task: t.task, expected: t.expected, got });
  }
  return { accuracy: tasks.length ? hits / tasks.length : 0, total: tasks.length, hits, misses };
}
