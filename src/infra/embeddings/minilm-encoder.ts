// The sentence encoder of discovery search: all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0;
// 384 dimensions, mean pooling), with int8 weights as an ONNX file in models/all-minilm-l6-v2/
// (models/README.md says where it comes from), run by onnxruntime-node on the CPU: its binaries
// ship inside the npm package, and nothing is fetched. Nothing is loaded until the first search. The
// operations' vectors are computed at build time (npm run embeddings:generate ->
// gitea/tool-vectors.minilm.json), so the first search only loads the model and embeds the task;
// an operation whose text is not in that file (a live spec of another Gitea version) is embedded
// then, a batch at a time.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SentenceEncoder } from '../../core/catalogue/semantic-search';
import { vocabularyWords, WordPieceTokenizer } from './wordpiece';

export const MINILM_MODEL = 'all-MiniLM-L6-v2-gitea-ft/int8-onnx/sha256:876bd5bcfb5c';
export const MODEL_DIR = join('models', 'all-minilm-l6-v2');
export const MODEL_FILE = 'model.int8.onnx';
/** The sha256 of the model file (a unit test checks it). */
export const MODEL_SHA256 = '876bd5bcfb5c5f5dd62a95b69b826c2cec02ea7f1dd873378004d9c3ba0b0090';
export const TOOL_VECTORS_FILE = join('gitea', 'tool-vectors.minilm.json');
const DIMS = 384;
/** The model was trained on at most 256 word pieces; an operation's text is well below 128. */
const MAX_TOKENS = 128;
const BATCH = 16;
const QUERY_CACHE = 256;

/** gitea/tool-vectors.minilm.json: one int8 vector (base64) per operation text, by text key. */
export type ToolVectorFile = { model: string; dims: number; vectors: Record<string, string> };

/** The key of a text in the vector file. */
export function textKey(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 16);
}

/** Only the direction counts (cosine): each vector is stored as int8 of x / max|x|. */
export function quantise(v: ArrayLike<number>): string {
  let max = 0;
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]!));
  const bytes = new Int8Array(v.length);
  for (let i = 0; i < v.length; i++) bytes[i] = Math.round((127 * v[i]!) / (max || 1));
  return Buffer.from(bytes.buffer).toString('base64');
}

export function dequantise(text: string): Float32Array {
  const buf = Buffer.from(text, 'base64');
  const bytes = new Int8Array(buf.buffer, buf.byteOffset, buf.length);
  return Float32Array.from(bytes);
}

/** Finds a file of the repository by walking up from this file (src/ and dist/src/). */
function findUp(relative: string): string | null {
  let dir = __dirname;
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, relative);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return null;
}

export function toolVectorsPath(): string | null {
  return findUp(TOOL_VECTORS_FILE);
}

export function modelDirectory(): string | null {
  const file = findUp(join(MODEL_DIR, MODEL_FILE));
  return file ? dirname(file) : null;
}

let encoderWordSet: Set<string> | null = null;
/**
 * The model's vocabulary as whole words (about 20,000 of four letters or more), read once: the
 * words discovery search's typo corrector must not change. Empty when the model files are missing.
 */
export function encoderWords(): ReadonlySet<string> {
  if (encoderWordSet) return encoderWordSet;
  const dir = modelDirectory();
  encoderWordSet = dir
    ? vocabularyWords(readFileSync(join(dir, 'vocab.txt'), 'utf8').split(/\r?\n/))
    : new Set<string>();
  return encoderWordSet;
}

type Ort = typeof import('onnxruntime-node');
type Session = Awaited<ReturnType<Ort['InferenceSession']['create']>>;
type Model = { ort: Ort; session: Session; tokenizer: WordPieceTokenizer };

/** Mean of the token vectors over the real tokens (sentence-transformers' pooling for this model). */
function meanPool(hidden: Float32Array, lengths: number[], width: number): Float32Array[] {
  return lengths.map((len, row) => {
    const v = new Float32Array(DIMS);
    for (let t = 0; t < len; t++) {
      const base = (row * width + t) * DIMS;
      for (let d = 0; d < DIMS; d++) v[d]! += hidden[base + d]!;
    }
    for (let d = 0; d < DIMS; d++) v[d]! /= len;
    return v;
  });
}

export class MiniLmEncoder implements SentenceEncoder {
  readonly model = MINILM_MODEL;
  private loaded: Promise<Model> | null = null;
  private stored: Map<string, Float32Array> | null = null;
  private readonly queries = new Map<string, Float32Array>();

  /**
   * `vectorsPath`: the build-time vectors (null: none, every text goes through the model);
   * `modelDir`: where model.int8.onnx and vocab.txt are.
   */
  constructor(
    private readonly vectorsPath: string | null = toolVectorsPath(),
    private readonly modelDir: string | null = modelDirectory(),
  ) {}

  async embed(texts: string[]): Promise<Float32Array[]> {
    const stored = this.storedVectors();
    const out = texts.map((t) => stored.get(textKey(t)) ?? this.queries.get(t));
    const missing = out.flatMap((v, i) => (v ? [] : [i]));
    if (missing.length) {
      const model = await this.load();
      for (let start = 0; start < missing.length; start += BATCH) {
        const batch = missing.slice(start, start + BATCH);
        const vectors = await this.run(
          model,
          batch.map((i) => texts[i]!),
        );
        batch.forEach((i, k) => (out[i] = vectors[k]!));
        // A batch keeps the CPU for a while: let other requests run between batches.
        if (start + BATCH < missing.length) await new Promise((r) => setImmediate(r));
      }
      if (texts.length === 1) this.remember(texts[0]!, out[0]!);
    }
    return out as Float32Array[];
  }

  /** Loads the model now (the bench and the vector generator; the service loads it on first use). */
  load(): Promise<Model> {
    this.loaded ??= (async () => {
      if (!this.modelDir) throw new Error(`the model files (${MODEL_DIR}) are missing`);
      const ort = (await import('onnxruntime-node')) as Ort;
      const tokenizer = WordPieceTokenizer.fromFile(join(this.modelDir, 'vocab.txt'));
      // One thread: a search embeds a dozen tokens, and the service shares its cores.
      const session = await ort.InferenceSession.create(join(this.modelDir, MODEL_FILE), {
        intraOpNumThreads: 1,
        interOpNumThreads: 1,
        executionMode: 'sequential',
        graphOptimizationLevel: 'all',
      });
      return { ort, session, tokenizer };
    })();
    this.loaded.catch(() => (this.loaded = null));
    return this.loaded;
  }

  /** Embeds texts in one run of the model (padded to the longest). */
  private async run({ ort, session, tokenizer }: Model, texts: string[]): Promise<Float32Array[]> {
    const encoded = texts.map((t) => tokenizer.encode(t, MAX_TOKENS));
    const width = Math.max(...encoded.map((e) => e.length));
    const size = texts.length * width;
    // Plain arrays: the runtime turns them into its own int64 arrays.
    const ids = new Array<number>(size).fill(0);
    const mask = new Array<number>(size).fill(0);
    encoded.forEach((e, row) =>
      e.forEach((id, t) => {
        ids[row * width + t] = id;
        mask[row * width + t] = 1;
      }),
    );
    const shape = [texts.length, width];
    const result = await session.run({
      input_ids: new ort.Tensor('int64', ids, shape),
      attention_mask: new ort.Tensor('int64', mask, shape),
      token_type_ids: new ort.Tensor('int64', new Array<number>(size).fill(0), shape),
    });
    const hidden = result['last_hidden_state']!;
    try {
      return meanPool(
        hidden.data as Float32Array,
        encoded.map((e) => e.length),
        width,
      );
    } finally {
      hidden.dispose();
    }
  }

  private remember(text: string, vector: Float32Array) {
    if (this.queries.size >= QUERY_CACHE) this.queries.delete(this.queries.keys().next().value!);
    this.queries.set(text, vector);
  }

  private storedVectors(): Map<string, Float32Array> {
    if (this.stored) return this.stored;
    this.stored = new Map();
    if (!this.vectorsPath) return this.stored;
    const file = JSON.parse(readFileSync(this.vectorsPath, 'utf8')) as ToolVectorFile;
    // Vectors of another model are not comparable: recompute rather than mix them.
    if (file.model !== this.model) return this.stored;
    for (const [key, text] of Object.entries(file.vectors)) this.stored.set(key, dequantise(text));
    return this.stored;
  }
}
