// Discovery search that also ranks by meaning. The lexical ranker (discovery-search.ts) finds an
// operation only through words it shares with the task; people often ask in other words ("bookmark
// this project" for starring). A sentence encoder maps the task and every operation's description
// to vectors, and the two rankings are fused: the lexical score (scaled to the best hit) plus the
// cosine similarity times MEANING_WEIGHT. The encoder is a port: the model lives in src/infra.
import type { CatalogueOperation } from './tool-catalogue';
import { CatalogueSearch, splitWords, type SearchHit } from './discovery-search';

/** Turns sentences into vectors (any length; compared by cosine). */
export interface SentenceEncoder {
  /** Names the model, so stored vectors of another model are never mixed in. */
  readonly model: string;
  embed(texts: string[]): Promise<Float32Array[]>;
}

/**
 * How much the cosine similarity counts next to the lexical score scaled to 1. Fitted on the
 * tuning lists and the blind set's half A (plateau from 1.3 to 2; half B only measured).
 */
export const MEANING_WEIGHT = 1.6;
/** How many lexical hits take part in the fusion (the lexical ranker's own cap). */
const LEXICAL_DEPTH = 50;
const DESCRIPTION_CHARS = 200;

/** What the encoder reads for an operation: summary, operationId words, tags, start of the description. */
export function operationText(op: CatalogueOperation): string {
  const description = op.description.replace(/\s+/g, ' ').trim().slice(0, DESCRIPTION_CHARS);
  return `${op.summary}. ${splitWords(op.operationId).join(' ')}. ${op.tags.join(' ')} ${description}`.trim();
}

/** The task as the encoder reads it: `owner/repo` is "the repository", quoted names and messages go. */
export function queryText(query: string): string {
  return query
    .slice(0, 500)
    .replace(/(^|\s)[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+/g, '$1the repository')
    .replace(/(^|[\s(=])(['"`“‘])[^'"`”’]*['"`”’](?=[\s.,;:!?)]|$)/g, '$1')
    .replace(/#(\d+)/g, 'number $1')
    .trim();
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
  private vectors: Promise<Float32Array[]> | null = null;
  private failed = false;

  constructor(
    readonly lexical: CatalogueSearch,
    private readonly operations: CatalogueOperation[],
    private readonly encoder: SentenceEncoder,
    private readonly warn: (message: string) => void = () => undefined,
  ) {}

  /** The operations' vectors, in catalogue order (computed once). */
  private operationVectors(): Promise<Float32Array[]> {
    this.vectors ??= this.encoder.embed(this.operations.map(operationText)).then((vs) => vs.map(normalise));
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
    let docs: Float32Array[];
    let q: Float32Array;
    try {
      const text = queryText(query);
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
      const score = (lexicalScore.get(op.operationId) ?? 0) / best + MEANING_WEIGHT * dot(docs[i]!, q);
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
