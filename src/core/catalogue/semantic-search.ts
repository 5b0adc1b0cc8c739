// Discovery search that also ranks by meaning. The lexical ranker (discovery-search.ts) finds an
// operation only through words it shares with the task; people often ask in other words ("bookmark
// this project" for starring). A sentence encoder maps the task and every operation's description
// to vectors, and the two rankings are fused: the square root of the lexical score (scaled to the
// best hit) plus MEANING_WEIGHT times the cosine similarity between the task and the operation's
// texts (its description, its summary, its operationId and its route read as phrases; 0.8 the
// best of them, 0.2 their average). The encoder is a port: the model lives in src/infra.
import type { CatalogueOperation } from './tool-catalogue';
import { CatalogueSearch, replaceFilePaths, splitWords, type SearchHit } from './discovery-search';

/** Turns sentences into vectors (any length; compared by cosine). */
export interface SentenceEncoder {
  /** Names the model, so stored vectors of another model are never mixed in. */
  readonly model: string;
  embed(texts: string[]): Promise<Float32Array[]>;
}

/**
 * How much the cosine similarity counts next to the lexical score scaled to 1. Fitted on the
 * tuning lists and the blind set's half A (half B only measured), for the encoder fine-tuned on
 * them (ADR 0020, revision 5: 2.4 before; revision 7: 4.0 before; revision 9: 5.0 before).
 */
export const MEANING_WEIGHT = 6.5;
/**
 * The lexical score scaled to the best hit is raised to this power: a hit with half the best word
 * score still counts 0.7, so the words pick the candidates and the meaning decides among them.
 */
const LEXICAL_POWER = 0.5;
/** How much the average similarity over an operation's texts counts beside the best one. */
const MEAN_SHARE = 0.2;
/** How many lexical hits take part in the fusion (the lexical ranker's own cap). */
const LEXICAL_DEPTH = 50;
const DESCRIPTION_CHARS = 200;

/** Gitea's short words, as a sentence says them. */
const LONG_FORM: Record<string, string> = {
  repo: 'repository',
  repos: 'repositories',
  org: 'organization',
  orgs: 'organizations',
  pull: 'pull request',
  pulls: 'pull requests',
  hook: 'webhook',
  hooks: 'webhooks',
  notify: 'notification',
  ref: 'reference',
  refs: 'references',
};
const longForm = (w: string) => LONG_FORM[w] ?? w;
const METHOD_VERB: Record<string, string> = {
  GET: 'get',
  POST: 'create',
  PUT: 'set',
  PATCH: 'edit',
  DELETE: 'delete',
};

/** What the encoder reads for an operation: summary, operationId words, tags, start of the description. */
export function operationText(op: CatalogueOperation): string {
  const description = op.description.replace(/\s+/g, ' ').trim().slice(0, DESCRIPTION_CHARS);
  return `${op.summary}. ${splitWords(op.operationId).join(' ')}. ${op.tags.join(' ')} ${description}`.trim();
}

/** A summary about an issue, said of a pull request ("Add a label to an issue": "... to a pull request"). */
function asPullRequest(summary: string): string {
  return summary
    .replace(/\ban issue\b/gi, 'a pull request')
    .replace(/\bissues\b/gi, 'pull requests')
    .replace(/\bissue\b/gi, 'pull request');
}

/**
 * Every text the encoder reads for an operation; a task is as close to it as to the closest one.
 * The description text, the summary with Gitea's short words spelt out, the operationId as a
 * phrase ("repository list pinned pull requests") and the method and route as one ("delete
 * repositories branch protections"). An operation on an issue's comments, labels, assignees, lock,
 * pin, subscriptions, times or dependencies (a route under /issues/{index}/) also reads its summary
 * said of a pull request: Gitea keeps those of a pull request on its issue, and a task says "label
 * PR 61", not "label the issue of PR 61".
 */
export function operationTexts(op: CatalogueOperation): string[] {
  const summary = op.summary.replace(/\b(repo|repos|org|orgs)\b/g, (w) => LONG_FORM[w]!);
  const idPhrase = splitWords(op.operationId).map(longForm).join(' ');
  const routeWords = op.route
    .split('/')
    .filter((s) => s && !s.startsWith('{'))
    .flatMap((s) => s.split(/[_-]/))
    .map(longForm);
  const routePhrase = `${METHOD_VERB[op.method] ?? op.method.toLowerCase()} ${routeWords.join(' ')}`;
  const texts = [operationText(op), summary, idPhrase, routePhrase];
  if (/\/issues\/\{index\}\/./.test(op.route) && /\bissues?\b/i.test(summary))
    texts.push(asPullRequest(summary));
  return [...new Set(texts.filter(Boolean))];
}

/** Jargon in tasks, spelt out as the operations' texts say it. */
const JARGON: Array<[RegExp, string]> = [
  [/\b(prs|mrs)\b/gi, 'pull requests'],
  [/\b(pr|mr)\b/gi, 'pull request'],
  [/\bmerge requests\b/gi, 'pull requests'],
  [/\bmerge request\b/gi, 'pull request'],
  [/\btickets\b/gi, 'issues'],
  [/\bticket\b/gi, 'issue'],
  [/\brepos\b/gi, 'repositories'],
  [/\brepo\b/gi, 'repository'],
  [/\borgs\b/gi, 'organizations'],
  [/\borg\b/gi, 'organization'],
  [/\bPATs?\b/g, 'access token'],
  [/\bCI secrets?\b/gi, 'actions secret'],
  [/\bpipelines?\b/gi, 'workflow run'],
  [/\btarball\b/gi, 'archive'],
];

/** "show me X" asks to see X; it is not about the current user. */
const SHOW_ME = /\b(show|give|tell|get|find|send|fetch|list|let|pull up|bring up) me\b/gi;

/**
 * The task as the encoder reads it: a file path is "the file" and `owner/repo` "the repository",
 * quoted names and messages go,
 * jargon (PR, MR, ticket, repo, org, PAT, CI secret, pipeline, tarball) is spelt out, and "my", "I"
 * and "me" are "the authenticated user", as the summaries of the current user's operations say it.
 */
export function queryText(query: string): string {
  let text = replaceFilePaths(query.slice(0, 500), 'the file')
    .replace(/(^|\s)[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+/g, '$1the repository')
    .replace(/(^|[\s(=])(['"`“‘])[^'"`”’]*['"`”’](?=[\s.,;:!?)]|$)/g, '$1')
    .replace(/#(\d+)/g, 'number $1');
  for (const [re, to] of JARGON) text = text.replace(re, to);
  text = text
    .replace(SHOW_ME, '$1')
    .replace(/\bmy\b/gi, "the authenticated user's")
    .replace(/\b(am I|I am|I'm)\b/g, 'the authenticated user is')
    .replace(/\bI\b/g, 'the authenticated user')
    .replace(/\bme\b/gi, 'the authenticated user');
  return text.trim();
}

/**
 * How close a task is to an operation: mostly the closest of its texts, a little the average of
 * them (an operation whose every text is near the task is a safer match than one lucky phrase).
 */
function similarity(texts: Float32Array[], q: Float32Array): number {
  let max = -1;
  let sum = 0;
  for (const v of texts) {
    const d = dot(v, q);
    sum += d;
    if (d > max) max = d;
  }
  return (1 - MEAN_SHARE) * max + (MEAN_SHARE * sum) / Math.max(1, texts.length);
}

function normalise(v: Float32Array): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  n = Math.sqrt(n) || 1;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i]! / n;
  return out;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  const len = Math.min(a.length, b.length);
  for (let i = 0; i < len; i++) s += a[i]! * b[i]!;
  return s;
}

/**
 * Lexical search fused with meaning. The operations' vectors are asked for once, on the first
 * search (an encoder may answer them from vectors computed at build time). When the encoder fails,
 * the search warns once and stays lexical.
 */
export class FusedSearch {
  private vectors: Promise<Float32Array[][]> | null = null;
  private failed = false;

  constructor(
    readonly lexical: CatalogueSearch,
    private readonly operations: CatalogueOperation[],
    private readonly encoder: SentenceEncoder,
    private readonly warn: (message: string) => void = () => undefined,
  ) {}

  /** The vectors of each operation's texts, in catalogue order (computed once). */
  private operationVectors(): Promise<Float32Array[][]> {
    this.vectors ??= (async () => {
      const texts = this.operations.map(operationTexts);
      const flat = (await this.encoder.embed(texts.flat())).map(normalise);
      let at = 0;
      return texts.map((t) => flat.slice(at, (at += t.length)));
    })();
    return this.vectors;
  }

  async search(
    query: string,
    limit = 8,
    allowed?: (op: CatalogueOperation) => boolean,
  ): Promise<SearchHit[]> {
    const lexicalHits = this.lexical.search(query, LEXICAL_DEPTH, allowed);
    const cut = Math.max(1, Math.min(limit, 50));
    if (this.failed) return lexicalHits.slice(0, cut);
    let docs: Float32Array[][];
    let q: Float32Array;
    try {
      const text = queryText(this.lexical.correctTypos(query));
      if (!text) return lexicalHits.slice(0, cut);
      [docs, q] = await Promise.all([
        this.operationVectors(),
        this.encoder.embed([text]).then((v) => normalise(v[0]!)),
      ]);
    } catch (err) {
      this.failed = true;
      this.warn(`discovery search: the sentence encoder failed, search stays lexical (${String(err)})`);
      return lexicalHits.slice(0, cut);
    }
    const lexicalScore = new Map(lexicalHits.map((h) => [h.name, h.score]));
    const best = Math.max(1e-9, ...lexicalScore.values());
    const scored: Array<{ op: CatalogueOperation; score: number }> = [];
    this.operations.forEach((op, i) => {
      if (allowed && !allowed(op)) return;
      const meaning = similarity(docs[i]!, q);
      const words = ((lexicalScore.get(op.operationId) ?? 0) / best) ** LEXICAL_POWER;
      const score = words + MEANING_WEIGHT * meaning;
      scored.push({ op, score });
    });
    scored.sort((a, b) => b.score - a.score || a.op.operationId.localeCompare(b.op.operationId));
    return scored.slice(0, cut).map(({ op, score }) => ({
      name: op.operationId,
      title: op.summary || op.operationId,
      method: op.method,
      path: op.route,
      score: Math.round(score * 100) / 100,
    }));
  }
}

/** Top-k accuracy of a ranker (lexical or fused) on a task list, as measureSearchAccuracy counts it. */
export async function measureRankerAccuracy(
  ranker: { search(query: string, limit?: number): SearchHit[] | Promise<SearchHit[]> },
  tasks: Array<{ task: string; expected: string[] }>,
  k = 3,
): Promise<{ accuracy: number; total: number; hits: number }> {
  let hits = 0;
  for (const t of tasks) {
    const got = (await ranker.search(t.task, k)).map((h) => h.name);
    if (got.some((name) => t.expected.includes(name))) hits++;
  }
  return { accuracy: tasks.length ? hits / tasks.length : 0, total: tasks.length, hits };
}
