// Search over the catalogue for discovery mode. Agents describe tasks in their own words
// ("close this ticket", "list my PRs"), so queries are expanded with synonyms and verbs are
// matched to HTTP methods before a weighted term score ranks the operations.
import porter2 from 'wink-porter2-stemmer';
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

/**
 * A file path in a task ("config/prod.json", "src/util.js", ".gitea/workflows/ci.yaml"): a name with
 * a slash that has three or more parts, starts with a dot, or ends in a file extension. It is a file
 * in a repository, not an `owner/repo` (ADR 0020, revision 8). A host ("github.com/foo/bar") and
 * a branch or version ("release/1.4") are not paths.
 */
const SLASHED = /(^|[\s(])([A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)+)(?=[\s.,;:!?)]|$)/g;
export function isFilePath(token: string): boolean {
  const parts = token.replace(/[.]+$/, '').split('/');
  if (parts.length < 2 || parts.some((p) => !p)) return false;
  if (/^[a-z0-9-]+(\.[a-z0-9-]+)*\.(com|org|net|io|dev|de|fr|uk|gov|edu)$/i.test(parts[0]!)) return false;
  const last = parts[parts.length - 1]!;
  if (parts.length >= 3 || parts[0]!.startsWith('.')) return true;
  return /\.[A-Za-z][A-Za-z0-9]{0,7}$/.test(last) && !/\.git$/i.test(last);
}

/** A folder word just before or after a name: "the src/handlers folder", "directory docs/api". */
const FOLDER_BEFORE = /\b(folder|directory|dir|subfolder|subdirectory)\s*$/i;
const FOLDER_AFTER = /^\s*(folder|directory|dir|subfolder|subdirectory)\b/i;

/**
 * Every file path in the text replaced by `to`; the rest unchanged. A name of two parts that a
 * folder word names ("the src/handlers folder") is a path too, not `owner/repo` (ADR 0020, revision 9).
 */
export function replaceFilePaths(text: string, to: string): string {
  return text.replace(SLASHED, (m, lead: string, token: string, at: number, all: string) => {
    const folder =
      FOLDER_BEFORE.test(all.slice(Math.max(0, at - 16), at + lead.length)) ||
      FOLDER_AFTER.test(all.slice(at + m.length, at + m.length + 16));
    return isFilePath(token) || (folder && !/^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,6}\//i.test(token))
      ? `${lead}${to}`
      : m;
  });
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
  fields: Array<{ terms: Set<string>; roots: Set<string>; weight: number }>;
  length: number;
  action: Action;
  scope: Scope;
  object: string | null;
  words: Set<string>;
  /** The operation's object is plural (orgDeleteRepos): a task about one thing is not served by it. */
  objectPlural: boolean;
};

// Weights of the score, fitted on the tuning sets only (a random search checked on the blind set's
// second half; see the README's discovery section).
const P = {
  id: 4.5,
  summary: 2,
  path: 1.5,
  tags: 0.5,
  description: 0.4,
  root: 0.95,
  coverage: 0.5,
  fit: 1,
  scopeHit: 1.3,
  scopeMiss: 0.8,
  me: 1.25,
  length: 0.03,
  common: 1.12,
  object: 1.35,
};
const FIELD_WEIGHTS = {
  id: P.id,
  summary: P.summary,
  path: P.path,
  tags: P.tags,
  description: P.description,
};
/** A match through the Porter2 root only (another form of the word) counts this much of an exact one. */
const ROOT_MATCH = P.root;
const PARTICIPLE_MATCH = 0.4;
const STATE_WORDS = new Set(['open', 'opened', 'closed', 'merged', 'unmerged', 'draft', 'pending', 'stale']);
const STATE_WEIGHT = 0.3;
/** How much a pull request task also names the issue operations (a PR is an issue in Gitea). */
const PR_AS_ISSUE = 0.6;
/** A word in a later clause of the task counts this much (the request comes first). */
const LATER_CLAUSE = 0.5;
const CLAUSE = 'zzclause';
const OBJ_BONUS = P.object;

const rootCache = new Map<string, string>();
/** The Porter2 stem (wink-porter2-stemmer) of a word. */
export function rootOf(word: string): string {
  let r = rootCache.get(word);
  if (r === undefined) {
    r = porter2(word);
    if (rootCache.size < 50_000) rootCache.set(word, r);
  }
  return r;
}

/** The action an operation performs, from its method and the verbs of its operationId. */
export function operationAction(op: CatalogueOperation): Action {
  if (op.method === 'DELETE') return 'delete';
  // A GET that answers many things: a JSON array, or an object holding one ({runners: [...]}),
  // which the operationId names in the plural (getRepoRunners, ListActionJobs).
  if (op.method === 'GET') return op.listResult || pluralName(op.operationId) ? 'list' : 'read';
  if (op.method === 'PATCH') return 'update';
  for (const w of splitWords(op.operationId)) {
    const a = OP_VERBS[w];
    if (a) return a === 'list' ? 'read' : a;
  }
  return 'create';
}

function pluralName(operationId: string): boolean {
  const last = splitWords(operationId.replace(/Deprecated$/, '')).pop() ?? '';
  return /[^su]s$/.test(last) && !['status', 'settings', 'details', 'contents'].includes(last);
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
export const FIT: Record<TaskAction, Record<Action, number>> = {
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
  /** The words that may name the task's thing, in order (the catalogue decides which are things). */
  nouns: string[];
  ownerRepo: boolean;
  /** Terms typed as participles ("labelled", "assigned"): they describe the thing. */
  participles: Set<string>;
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

export type CatalogueSearchOptions = {
  /**
   * Real words the typo corrector must never change, asked for on the first correction (the
   * sentence encoder's WordPiece vocabulary: "main" is not a typo of "mail", nor "text" of "test").
   */
  knownWords?: () => ReadonlySet<string>;
};

export class CatalogueSearch {
  private readonly docs: Doc[];
  private readonly idf = new Map<string, number>();
  /** Every thing an operation acts on (the last noun of its operationId). */
  private readonly objects = new Set<string>();
  /** Inverse document frequency of Porter2 roots: the fallback match for other forms of a word. */
  private readonly rootIdf = new Map<string, number>();

  constructor(
    operations: CatalogueOperation[],
    private readonly options: CatalogueSearchOptions = {},
  ) {
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
        fields: fields.map((f) => ({ ...f, roots: new Set([...f.terms].map(rootOf)) })),
        length: idWords.length,
        action: operationAction(op),
        scope: scopeOf(op.route),
        object: objectOf(idWords),
        words: new Set(idWords),
        objectPlural:
          /s$/.test(splitWords(op.operationId.replace(/Deprecated$/, '')).pop() ?? '') && !op.listResult,
      };
    });
    for (const doc of this.docs) if (doc.object) this.objects.add(doc.object);
    const df = new Map<string, number>();
    const rootDf = new Map<string, number>();
    for (const doc of this.docs) {
      const all = new Set(doc.fields.flatMap((f) => [...f.terms]));
      for (const t of all) df.set(t, (df.get(t) ?? 0) + 1);
      for (const r of new Set(doc.fields.flatMap((f) => [...f.roots])))
        rootDf.set(r, (rootDf.get(r) ?? 0) + 1);
    }
    const n = this.docs.length;
    for (const [t, count] of df) this.idf.set(t, Math.log(1 + (n - count + 0.5) / (count + 0.5)));
    for (const [t, count] of rootDf) this.rootIdf.set(t, Math.log(1 + (n - count + 0.5) / (count + 0.5)));
  }

  /** The task's action, resource words (weighted, expanded with the lexicon), scope and number. */
  static expand(query: string): QueryIntent {
    let text = ` ${query.slice(0, 500).toLowerCase()} `.replace(/['’]s\b/g, '');
    let scope: Scope | null = null;
    let single = false;
    // A file path is a file in a repository, not an owner/repo.
    // A version ("v2.3.1") names a tag (or the release of that tag).
    text = text.replace(/(^|\s)v\d+(\.\d+)+(?=[\s.,;:!?)]|$)/g, '$& tag ');
    const withFiles = replaceFilePaths(text, ' file ');
    if (withFiles !== text) scope = 'repo';
    text = withFiles;
    // owner/repo means a repository; #12, a hex sha or a bare number means one item.
    const ownerRepo = /(^|\s)[a-z0-9_.-]+\/[a-z0-9_.-]+/.test(text);
    if (ownerRepo) {
      scope = 'repo';
      text = text.replace(/(^|\s)[a-z0-9_.-]+\/[a-z0-9_.-]+/g, ' repo ');
    }
    if (/(#\d+|\b\d+\b|\b[0-9a-f]{7,40}\b)/.test(text)) single = true;
    if (/\b[0-9a-f]{7,40}\b/.test(text) && /[a-f]/.test(text.match(/\b[0-9a-f]{7,40}\b/)?.[0] ?? ''))
      text += ' sha ';
    // Quoted text is a name, a title or a message: what to write, not what to do.
    text = text.replace(/(^|[\s(=])(['"`“‘])[^'"`”’]*['"`”’](?=[\s.,;:!?)]|$)/g, '$1 ');
    for (const [re, to] of PHRASES) text = text.replace(re, to);
    // What follows the first clause ("..., it's resolved", "...: please rebase") is context.
    text = text.replace(/[,;:!?]|\s[-–—]+\s|\b(so that|so|because|since|but)\b/g, ` ${CLAUSE} `);
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
    const nouns: string[] = [];
    const participles = new Set<string>();
    let clause = 1;
    const add = (t: string, w: number) => terms.set(t, Math.max(terms.get(t) ?? 0, w * clause));
    words.forEach((word, index) => {
      if (word === CLAUSE) {
        clause = LATER_CLAUSE;
        return;
      }
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
      if (word.length > 4 && word.endsWith('ed')) participles.add(s);
      if (!isActionWord && !NOT_TASK_OBJECTS.has(word))
        nouns.push(stem((SYNONYMS[word] ?? SYNONYMS[s])?.[0] ?? s));
      if (s !== word && word.endsWith('s') && !ACTION_WORDS[word] && !['does', 'has', 'was'].includes(word))
        plural = true;
      // "open" inside a task is a state ("open pull requests"), not the action it is in first place.
      const synonyms =
        word === 'open' && !isActionWord ? [] : (SYNONYMS[word] ?? SYNONYMS[s] ?? []).map(stem);
      const pronoun = ['my', 'me', 'mine', 'myself', 'i'].includes(word);
      const isAction = isActionWord;
      // A word that stands for other terms ("new" -> create) or states the action counts less literally.
      // A state ("open pull requests", "closed issues") filters the list; it is not what to find.
      if (!isAction && STATE_WORDS.has(word)) add(s, STATE_WEIGHT);
      else if (!(isAction && synonyms.length && !synonyms.includes(s)))
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
      nouns,
      ownerRepo,
      participles,
    };
  }

  /** Words the search knows: the catalogue's, the lexicon's and the stop words. */
  private vocabulary: {
    known: Set<string>;
    byLength: Map<number, string[]>;
    words: ReadonlySet<string>;
  } | null = null;

  /**
   * A misspelt word ("mrege", "lsit", "delte") is read as the known word one edit away (a letter
   * added, dropped, changed, or two swapped); lexicon words first, then the most common catalogue word.
   * A word of the language (`knownWords`) is never a typo, whatever catalogue word it is near.
   */
  correctTypos(query: string): string {
    const vocab = (this.vocabulary ??= this.buildVocabulary());
    return query.replace(/[A-Za-z]{4,}/g, (raw) => {
      const word = raw.toLowerCase();
      if (
        vocab.known.has(word) ||
        vocab.known.has(stem(word)) ||
        this.rootIdf.has(rootOf(word)) ||
        vocab.words.has(word)
      )
        return raw;
      for (const len of [word.length, word.length - 1, word.length + 1])
        for (const candidate of vocab.byLength.get(len) ?? [])
          if (oneEditApart(word, candidate)) return candidate;
      return raw;
    });
  }

  private buildVocabulary() {
    const lexicon = [...Object.keys(ACTION_WORDS), ...Object.keys(SYNONYMS)];
    const catalogue = [...this.idf.entries()].sort((a, b) => a[1] - b[1]).map(([t]) => t);
    const known = new Set([...lexicon, ...catalogue, ...STOP]);
    const byLength = new Map<number, string[]>();
    for (const w of [...lexicon, ...catalogue]) {
      if (!/^[a-z]{3,}$/.test(w)) continue;
      const list = byLength.get(w.length) ?? [];
      if (!list.includes(w)) list.push(w);
      byLength.set(w.length, list);
    }
    let words: ReadonlySet<string> = new Set();
    try {
      words = this.options.knownWords?.() ?? words;
    } catch {
      // No word list (its file is missing): the corrector falls back to the catalogue's words.
    }
    return { known, byLength, words };
  }

  /**
   * What the task asks for, as the ranking reads it: the typo-corrected query, its expanded terms,
   * the action (with the defaults: a plural asks for a list, no verb asks to see something), and
   * the thing acted on and a second one.
   */
  understand(query: string): {
    query: string;
    intent: QueryIntent;
    action: TaskAction;
    object: string | null;
    second: string | null;
  } {
    query = this.correctTypos(query);
    const intent = CatalogueSearch.expand(query);
    const { terms } = intent;
    // The task's thing is a thing some operation acts on: "remove spam ticket 14" is about the issue.
    const things = intent.nouns.filter((n) => this.objects.has(n));
    // "change the description of acme/api": with no other thing named, owner/repo is the thing.
    if (!things.length && intent.ownerRepo) things.push('repo');
    // Gitea keeps a pull request's labels, comments, assignees, locks and pins on its issue: a PR
    // task about another thing names the issue operations too.
    if (terms.has('pull') && !terms.has('issue')) terms.set('issue', PR_AS_ISSUE);
    const object =
      intent.object && this.objects.has(intent.object) ? intent.object : (things[0] ?? intent.object);
    const second =
      intent.second && this.objects.has(intent.second) && intent.second !== object
        ? intent.second
        : (things.find((t) => t !== object) ?? intent.second);
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
    return { query, intent, action, object, second };
  }

  search(query: string, limit = 8, allowed?: (op: CatalogueOperation) => boolean): SearchHit[] {
    const { intent, action, object, second } = this.understand(query);
    const { terms, current, scope } = intent;
    if (!terms.size) return [];
    // Only words the catalogue knows count towards "how much of the task matched".
    let known = 0;
    const roots = new Map<string, string>();
    for (const t of terms.keys()) {
      roots.set(t, rootOf(t));
      if ((this.idf.get(t) ?? 0) > 0 || (this.rootIdf.get(roots.get(t)!) ?? 0) > 0) known++;
    }
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
          continue;
        }
        // Another form of the word (labeled / label, mirroring / mirror): counts, a little less.
        const root = roots.get(term)!;
        for (const field of doc.fields) if (field.roots.has(root) && field.weight > best) best = field.weight;
        if (best > 0) {
          matched++;
          // A participle ("labelled bug", "assigned to me") describes the thing, it does not name it.
          const form = intent.participles.has(term) ? PARTICIPLE_MATCH : ROOT_MATCH;
          score += form * weight * best * (this.rootIdf.get(root) ?? 0);
        }
      }
      if (score <= 0) continue;
      score *= 1 - P.coverage + (P.coverage * matched) / Math.max(1, known);
      score *= FIT[action][doc.action] ** P.fit;
      if (action === 'read' && intent.single && doc.action === 'list') score *= 0.85;
      if (object && doc.object === object) score *= OBJ_BONUS;
      else if (second && doc.object === second) score *= 1.2;
      if (doc.objectPlural && !intent.plural) score *= 0.85;
      for (const segment of intent.numbered) if (doc.op.route.includes(`/${segment}/{`)) score *= 1.2;
      if (intent.yesNo && (doc.words.has('check') || doc.words.has('is'))) score *= 1.3;
      const id = doc.op.operationId.toLowerCase();
      if (scope) {
        if (doc.scope === scope) score *= P.scopeHit;
        else if (scope === 'me' && doc.scope === 'user') score *= 0.95;
        else if (doc.scope !== 'other') score *= P.scopeMiss;
      } else if (doc.scope === 'repo') score *= 1.08;
      if (current && doc.scope === 'me') score *= P.me;
      if (!current && id.includes('current')) score *= 0.93;
      // Shorter, more general and more commonly used operations first when scores tie.
      score *= 1 / (1 + P.length * doc.length);
      if (COMMON_OPERATIONS.has(doc.op.operationId)) score *= P.common;
      if (id.endsWith('deprecated')) score *= 0.9;
      // A read sent as POST (repoGetFileContentsPost, for long arguments) is the GET's twin: GET first.
      if (doc.op.method === 'POST' && doc.action === 'read') score *= 0.85;
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

/** True when b is a (one letter added, dropped or changed, or two neighbours swapped). */
export function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
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
