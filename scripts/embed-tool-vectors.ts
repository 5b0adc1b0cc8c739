// Writes gitea/tool-vectors.minilm.json: the sentence encoder's vector of every operation of the
// bundled spec (the text discovery search embeds, src/core/catalogue/semantic-search.ts), so the
// service's first search loads only the model and embeds only the task. Run after the spec or
// operationTexts changes: `npm run embeddings:generate`; test/unit/catalogue/semantic-search.test.ts
// fails until then.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCatalogue } from '../src/core/catalogue/tool-catalogue';
import { operationTexts } from '../src/core/catalogue/semantic-search';
import { loadBundledSpec } from '../src/infra/gitea/spec-source';
import {
  quantise,
  textKey,
  TOOL_VECTORS_FILE,
  MiniLmEncoder,
  type ToolVectorFile,
} from '../src/infra/embeddings/minilm-encoder';

async function main() {
  const operations = buildCatalogue(loadBundledSpec(), { maxBinaryBytes: 1 }).operations;
  const texts = [...new Set(operations.flatMap(operationTexts))].sort();
  const encoder = new MiniLmEncoder(null);
  const vectors = await encoder.embed(texts);
  const file: ToolVectorFile = {
    model: encoder.model,
    dims: vectors[0]!.length,
    vectors: Object.fromEntries(texts.map((t, i) => [textKey(t), quantise(vectors[i]!)])),
  };
  const target = join(__dirname, '..', TOOL_VECTORS_FILE);
  writeFileSync(target, `${JSON.stringify(file, null, 0)}\n`);
  process.stdout.write(`${texts.length} vectors of ${file.dims} dimensions -> ${TOOL_VECTORS_FILE}\n`);
}

void main();
