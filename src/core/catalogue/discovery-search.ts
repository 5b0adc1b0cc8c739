// Search over the catalogue for discovery mode. Agents describe tasks in their own words
// ("close this ticket", "list my PRs"), so queries are expanded with synonyms and verbs are
// matched to HTTP methods before a weighted term score ranks the operations.
import type { CatalogueOperation } from './tool-catalogue';
import {
  ACTION_WORDS,
  COMMON_OPERATIONS,
  LEADING_ONLY,
  WHO_NOUNS,
  NUMBERED_SEGMENTS,
  YES_NO,
  NOT_TASK_OBJECTS,
  OP_VERBS,
  PHRASES,
  SYNONYMS,
  TOGGLE_OBJECT,
  type Action,
  type TaskAction,
} from './discovery-lexicon';

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
  'who',
]);

export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 4 && /(ches|shes|xes|sses)$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) w = w.slice(0, -1);
  // -ing and doubled -ed forms name the same thing (starring, watching, pinned) on both sides.
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 5 && /([bdglmnprt])\1ed$/.test(w)) w = w.slice(0, -2);
  if (/([bdglmnprt])\1$/.test(w) && w.length > 3 && !w.endsWith('ll')) w = w.slice(0, -1);
  return w;
}

export function splitWords(text: string): string[] {
  return text
    .replace(/OAuth2/g, 'Oauth2')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

type Scope = 'repo' | 'org' | 'me' | 'user' | 'admin' | 'other';

type Doc = {
  op: CatalogueOperation;
  fields: Array<{ terms: Set<string>; weight: number }>;
  length: number;
  action: Action;
  scope: Scope;
  object: string | null;
  words: Set<string>;
  /** The operation's object is plural (orgDeleteRepos): a task about one thing is not served by it. */
  objectPlural: boolean;
};

const FIELD_WEIGHTS = { id: 3, summary: 2, path: 1.5, tags: 0.5, description: 0.4 };

/** The action an operation performs, from its method and the verbs of its operationId. */
export function operationAction(op: CatalogueOperation): Action {
  if (op.method === 'DELETE') return 'delete';
  if (op.method === 'GET') return op.listResult ? 'list' : 'read';
  if (op.method === 'PATCH') return 'update';
  for (const w of splitWords(op.operationId)) {
    const a = OP_VERBS[w];
    if (a) return a === 'list' ? 'read' : a;
  }
  return 'create';
}

const UNDO_VERBS = new Set([
  'delete',
  'remove',
  'clear',
  'reset',
  'unpin',
  'unlock',
  'unblock',
  'cancel',
  'dismiss',
  'undismiss',
  'unlink',
  'conceal',
  'unresolve',
  'stop',
]);

const NOT_OBJECTS = new Set(['deprecated', 'by', 'id', 'all', 'ref', 'name', 'list', 'of', 'or', 'a']);

/** The thing an operation acts on: its last noun (createCurrentUserRepo: repo; orgCreate: org). */
function objectOf(idWords: string[]): string | null {
  const words: string[] = [];
  for (let i = 0; i < idWords.length; i++) {
    if (idWords[i] === 'pull' && idWords[i + 1] === 'request') {
      words.push('pull');
      i++;
    } else words.push(idWords[i]!);
  }
  for (let i = words.length - 1; i >= 0; i--) {
    const w = words[i]!;
    if (NOT_OBJECTS.has(w) || ((OP_VERBS[w] || UNDO_VERBS.has(w)) && i > 0)) continue;
    return w;
  }
  return null;
}

function scopeOf(route: string): Scope {
  if (route.startsWith('/repos/')) return 'repo';
  if (route.startsWith('/orgs/') || route.startsWith('/teams/')) return 'org';
  if (route.startsWith('/user/') || route === '/user') return 'me';
  if (route.startsWith('/users/')) return 'user';
  if (route.startsWith('/admin/')) return 'admin';
  return 'other';
}

// How well an operation's action serves the task's action: the opposite action is pushed far down.
const FIT: Record<TaskAction, Record<Action, number>> = {
  set: { update: 1.5, create: 1.4, read: 0.5, list: 0.5, delete: 0.3 },
  create: { create: 1.6, update: 0.85, read: 0.5, list: 0.5, delete: 0.25 },
  delete: { delete: 1.7, update: 0.55, create: 0.3, read: 0.45, list: 0.45 },
  update: { update: 1.6, create: 0.8, read: 0.5, list: 0.5, delete: 0.3 },
  read: { read: 1.35, list: 1.15, create: 0.55, update: 0.55, delete: 0.3 },
  list: { list: 1.45, read: 1.0, create: 0.5, update: 0.5, delete: 0.3 },
};

export type QueryIntent = {
  terms: Map<string, number>;
  action: TaskAction | null;
  /** The first thing named after the action ("create a new repository": repo). */
  object: string | null;
  second: string | null;
  method: string | null;
  current: boolean;
  scope: Scope | null;
  single: boolean;
  plural: boolean;
  /** Path segments of things named with a number ("issue 13" -> issues). */
  numbered: string[];
  yesNo: boolean;
};

const SCOPE_WORDS = new Set([
  'repo',
  'repos',
  'repository',
  'repositories',
  'project',
  'org',
  'orgs',
  'organization',
  'organizations',
  'organisation',
  'company',
]);

const ACTION_METHOD: Record<TaskAction, string> = {
  set: 'PUT',
  create: 'POST',
  read: 'GET',
  list: 'GET',
  update: 'PATCH',
  delete: 'DELETE',
};

export class CatalogueSearch {
  private readonly docs: Doc[];
  private readonly idf = new Map<string, number>();

  constructor(operations: CatalogueOperation[]) {
    this.docs = operations.map((op) => {
      const pathWords = op.route
        .split('/')
        .filter((s) => s && !s.startsWith('{'))
        .flatMap(splitWords);
      const idWords = splitWords(op.operationId).map(stem);
      const fields = [
        { terms: new Set(idWords), weight: FIELD_WEIGHTS.id },
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
      return {
        op,
        fields,
        length: idWords.length,
        action: operationAction(op),
        scope: scopeOf(op.route),
        object: objectOf(idWords),
        words: new Set(idWords),
        objectPlural:
          /s$/.test(splitWords(op.operationId.replace(/Deprecated$/, '')).pop() ?? '') && !op.listResult,
      };
    });
    const df = new Map<string, number>();
    for (const doc of this.docs) {
      const all = new Set(doc.fields.flatMap((f) => [...f.terms]));
      for (const t of all) df.set(t, (df.get(t) ?? 0) + 1);
    }
    const n = this.docs.length;
    for (const [t, count] of df) this.idf.set(t, Math.log(1 + (n - count + 0.5) / (count + 0.5)));
  }

  /** The task's action, resource words (weighted, expanded with the lexicon), scope and number. */
  static expand(query: string): QueryIntent {
    let text = ` ${query.slice(0, 500).toLowerCase()} `.replace(/['’]s\b/g, '');
    let scope: Scope | null = null;
    let single = false;
    // owner/repo means a repository; #12, a hex sha or a bare number means one item.
    const ownerRepo = /(^|\s)[a-z0-9_.-]+\/[a-z0-9_.-]+/.test(text);
    if (ownerRepo) {
      scope = 'repo';
      text = text.replace(/(^|\s)[a-z0-9_.-]+\/[a-z0-9_.-]+/g, ' repo ');
    }
    if (/(#\d+|\b\d+\b|\b[0-9a-f]{7,40}\b)/.test(text)) single = true;
    if (/\b[0-9a-f]{7,40}\b/.test(text) && /[a-f]/.test(text.match(/\b[0-9a-f]{7,40}\b/)?.[0] ?? ''))
      text += ' sha ';
    for (const [re, to] of PHRASES) text = text.replace(re, to);
    const words = text.split(/[^a-z0-9]+/).filter(Boolean);
    // Plurals are read from the task as typed too (phrases fold "deploy keys" into one word).
    let plural = query
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .some(
        (w) =>
          w.length > 3 &&
          w.endsWith('s') &&
          stem(w) !== w &&
          !ACTION_WORDS[w] &&
          !['does', 'has', 'was', 'this', 'its'].includes(w),
      );
    const numbered: string[] = [];
    words.forEach((w, i) => {
      const segment = NUMBERED_SEGMENTS[w] ?? NUMBERED_SEGMENTS[stem(w)];
      if (segment && /^\d+$/.test(words[i + 1] ?? '')) numbered.push(segment);
    });
    const yesNo = YES_NO.has(words[0] ?? '');
    const who =
      words[0] === 'who' || (words[0] === 'which' && ['user', 'users', 'people'].includes(words[1] ?? ''));
    const terms = new Map<string, number>();
    let action: TaskAction | null = null;
    let object: string | null = null;
    let objectScope: string | null = null;
    let second: string | null = null;
    let current = false;
    const add = (t: string, w: number) => terms.set(t, Math.max(terms.get(t) ?? 0, w));
    words.forEach((word, index) => {
      const leading =
        index === 0 || (index === 1 && ['please', 'can', 'now', 'then', 'just'].includes(words[0]!));
      const a = ACTION_WORDS[word];
      if (!action && a && (leading || !LEADING_ONLY.has(word))) action = a;
      if (['my', 'me', 'mine', 'myself', 'whoami', 'i'].includes(word)) current = true;
      if (
        ['org', 'orgs', 'organization', 'organizations', 'organisation', 'team', 'teams', 'company'].includes(
          word,
        )
      )
        scope ??= 'org';
      if (['repo', 'repos', 'repository', 'repositories', 'project'].includes(word)) scope ??= 'repo';
      if (['admin', 'instance', 'site', 'system', 'global', 'server'].includes(word)) scope = 'admin';
      if (who && WHO_NOUNS[word]) add(WHO_NOUNS[word]!, 1);
      if (STOP.has(word) && !SYNONYMS[word]) return;
      const s = stem(word);
      const isActionWord = a !== undefined && (leading || !LEADING_ONLY.has(word));
      if (isActionWord && TOGGLE_OBJECT[word] && !object) object = TOGGLE_OBJECT[word]!;
      else if (
        object &&
        !second &&
        !isActionWord &&
        action &&
        !NOT_TASK_OBJECTS.has(word) &&
        !SCOPE_WORDS.has(word)
      )
        second = (SYNONYMS[word] ?? SYNONYMS[s])?.[0] ?? s;
      if (!isActionWord && action && (!object || (object === objectScope && !SCOPE_WORDS.has(word)))) {
        const named = (SYNONYMS[word] ?? SYNONYMS[s])?.[0] ?? s;
        if (named === 'repo' || named === 'org') {
          // The thing itself is not where it lives: "create a repository" is not a call inside one.
          object = named;
          objectScope = named;
        } else if (!NOT_TASK_OBJECTS.has(word) && !NOT_TASK_OBJECTS.has(named)) {
          object = named;
          objectScope = null;
        }
      }
      if (s !== word && word.endsWith('s') && !ACTION_WORDS[word] && !['does', 'has', 'was'].includes(word))
        plural = true;
      // "open" inside a task is a state ("open pull requests"), not the action it is in first place.
      const synonyms =
        word === 'open' && !isActionWord ? [] : (SYNONYMS[word] ?? SYNONYMS[s] ?? []).map(stem);
      const pronoun = ['my', 'me', 'mine', 'myself', 'i'].includes(word);
      const isAction = isActionWord;
      // A word that stands for other terms ("new" -> create) or states the action counts less literally.
      if (!(isAction && synonyms.length && !synonyms.includes(s)))
        add(s, synonyms.length && !synonyms.includes(s) ? 0.5 : isAction ? 0.7 : 1);
      for (const syn of synonyms) add(syn, pronoun ? 0.3 : isAction ? 0.7 : 1);
    });
    const scopeWords = words.filter((w) => SCOPE_WORDS.has(w)).length;
    if (objectScope && !ownerRepo && scope === objectScope && scopeWords === 1) scope = null;
    if (/\b(issue|pull|bug|ticket|pr)\b/.test(text) && /\btag(ged)?\b/.test(text)) add('label', 1);
    const act = action as TaskAction | null;
    return {
      terms,
      action: act,
      object: object ? stem(object) : null,
      second: second ? stem(second) : null,
      method: act ? ACTION_METHOD[act] : null,
      current,
      scope,
      single,
      plural,
      numbered,
      yesNo,
    };
  }

  search(query: string, limit = 8, allowed?: (op: CatalogueOperation) => boolean): SearchHit[] {
    const intent = CatalogueSearch.expand(query);
    const { terms, current, scope } = intent;
    let action = intent.action;
    if (action === 'read' && intent.plural && !intent.single) action = 'list';
    // "open notification 55" reads an existing thing; without a verb a task asks to see something.
    if (
      action === 'create' &&
      /^\s*open\b/i.test(query) &&
      intent.numbered.length &&
      !/\b(issue|bug|ticket|pr|pull)\b/i.test(query)
    )
      action = 'read';
    if (!action) action = intent.plural ? 'list' : 'read';
    if (!terms.size) return [];
    // Only words the catalogue knows count towards "how much of the task matched".
    let known = 0;
    for (const t of terms.keys()) if ((this.idf.get(t) ?? 0) > 0) known++;
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
      score *= 0.5 + (0.5 * matched) / Math.max(1, known);
      score *= FIT[action][doc.action];
      if (action === 'read' && intent.single && doc.action === 'list') score *= 0.85;
      if (intent.object && doc.object === intent.object) score *= 1.35;
      else if (intent.second && doc.object === intent.second) score *= 1.2;
      if (doc.objectPlural && !intent.plural) score *= 0.85;
      for (const segment of intent.numbered) if (doc.op.route.includes(`/${segment}/{`)) score *= 1.2;
      if (intent.yesNo && (doc.words.has('check') || doc.words.has('is'))) score *= 1.3;
      const id = doc.op.operationId.toLowerCase();
      if (scope) {
        if (doc.scope === scope) score *= 1.3;
        else if (scope === 'me' && doc.scope === 'user') score *= 0.95;
        else if (doc.scope !== 'other') score *= 0.8;
      } else if (doc.scope === 'repo') score *= 1.08;
      if (current && doc.scope === 'me') score *= 1.2;
      if (!current && id.includes('current')) score *= 0.93;
      // Shorter, more general and more commonly used operations first when scores tie.
      score *= 1 / (1 + 0.03 * doc.length);
      if (COMMON_OPERATIONS.has(doc.op.operationId)) score *= 1.12;
      if (id.endsWith('deprecated')) score *= 0.9;
      if (scope !== 'admin' && doc.scope === 'admin') score *= 0.75;
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
