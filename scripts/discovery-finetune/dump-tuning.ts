// Writes the tuning side (never the held-out set) as the fine-tuning scripts read it: each task of
// the tuning lists and of the blind set's halves A and B (B only for validation), the text the
// encoder reads for it (queryText) and the word search's top 50 with scores; every operation with
// its texts (operationTexts). An optional first argument adds a task file as the set `synthetic`;
// the second names the output (default $FT_WORK/dump.json). ADR 0020, revision 5.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadBundledSpec } from '../../src/infra/gitea/spec-source';
import { buildCatalogue } from '../../src/core/catalogue/tool-catalogue';
import { CatalogueSearch, type DiscoveryTask } from '../../src/core/catalogue/discovery-search';
import { operationTexts, queryText } from '../../src/core/catalogue/semantic-search';
import { encoderWords } from '../../src/infra/embeddings/minilm-encoder';

const ROOT = path.join(__dirname, '..', '..');
const load = (file: string) =>
  JSON.parse(fs.readFileSync(path.resolve(ROOT, file), 'utf8')) as DiscoveryTask[];
const operations = buildCatalogue(loadBundledSpec(), { maxBinaryBytes: 1 }).operations;
const search = new CatalogueSearch(operations, { knownWords: encoderWords });
const blind = load('test/unit/catalogue/discovery-tasks-blind.json');
const sets: Record<string, DiscoveryTask[]> = {
  tuning: [
    ...load('test/unit/catalogue/discovery-tasks.json'),
    ...load('test/unit/catalogue/discovery-tasks-added.json'),
    ...load('test/unit/catalogue/discovery-tasks-added-2.json'),
  ],
  blindA: blind.filter((_, i) => i % 2 === 0),
  blindB: blind.filter((_, i) => i % 2 === 1),
};
const extra = process.argv[2];
if (extra) sets['synthetic'] = load(extra);
const out = {
  operations: operations.map((op) => ({
    id: op.operationId,
    method: op.method,
    route: op.route,
    tags: op.tags,
    summary: op.summary,
    description: op.description,
    params: op.params.map((p) => p.name),
    texts: operationTexts(op),
  })),
  sets: Object.fromEntries(
    Object.entries(sets).map(([name, tasks]) => [
      name,
      tasks.map((t) => ({
        task: t.task,
        expected: t.expected,
        q: queryText(search.correctTypos(t.task)),
        lex: search.search(t.task, 50).map((h) => [h.name, h.score]),
      })),
    ]),
  ),
};
const target = process.argv[3] ?? path.join(process.env['FT_WORK'] ?? '/tmp/discovery-ft', 'dump.json');
fs.writeFileSync(target, JSON.stringify(out));
