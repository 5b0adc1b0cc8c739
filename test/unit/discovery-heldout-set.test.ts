// Self-test of the held-out discovery set (bench/discovery/heldout/tasks.json): it checks only
// the set's own shape against Gitea's swagger, never the search. Deliberately imports no search
// code, so the set stays independent of what it measures.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface HeldOutTask {
  id: string;
  task: string;
  tag: string;
  expected: string[];
}

interface SwaggerOperation {
  operationId?: string;
  tags?: string[];
  summary?: string;
}

const root = join(__dirname, '..', '..');
const tasks = JSON.parse(
  readFileSync(join(root, 'bench/discovery/heldout/tasks.json'), 'utf8'),
) as HeldOutTask[];
const swagger = JSON.parse(readFileSync(join(root, 'gitea/swagger.v1.json'), 'utf8')) as {
  paths: Record<string, Record<string, SwaggerOperation>>;
};

const operations = new Map<string, SwaggerOperation>();
for (const methods of Object.values(swagger.paths)) {
  for (const op of Object.values(methods)) {
    if (op.operationId) operations.set(op.operationId, op);
  }
}
// An operation with two tags counts once for each, as it is listed under both in the swagger.
const operationsPerTag = new Map<string, number>();
for (const op of operations.values()) {
  for (const tag of op.tags ?? []) operationsPerTag.set(tag, (operationsPerTag.get(tag) ?? 0) + 1);
}
const tagEntries = [...operationsPerTag.values()].reduce((a, b) => a + b, 0);

describe('held-out discovery set', () => {
  it('is read against the full Gitea 1.27.1 catalogue', () => {
    expect(operations.size).toBe(485);
  });

  it('has at least 300 tasks with unique ids and unique wording', () => {
    expect(tasks.length).toBeGreaterThanOrEqual(300);
    expect(new Set(tasks.map((t) => t.id)).size).toBe(tasks.length);
    expect(new Set(tasks.map((t) => t.task.trim().toLowerCase())).size).toBe(tasks.length);
    for (const t of tasks) expect(t.id).toMatch(/^h\d{3,}$/);
  });

  it('names only operations that exist in gitea/swagger.v1.json', () => {
    const unknown = tasks.flatMap((t) =>
      t.expected.filter((id) => !operations.has(id)).map((id) => `${t.id}: ${id}`),
    );
    expect(unknown).toEqual([]);
  });

  it('gives every task a non-empty, duplicate-free expected list', () => {
    for (const t of tasks) {
      expect(t.task.trim().length).toBeGreaterThan(0);
      expect(t.expected.length).toBeGreaterThan(0);
      expect(new Set(t.expected).size).toBe(t.expected.length);
    }
  });

  it('files every task under a swagger tag that one of its expected operations carries', () => {
    const wrong = tasks.filter(
      (t) =>
        !operationsPerTag.has(t.tag) || !t.expected.some((id) => operations.get(id)?.tags?.includes(t.tag)),
    );
    expect(wrong.map((t) => t.id)).toEqual([]);
  });

  it('spreads the tasks over the tags in proportion to their operations', () => {
    const counts = new Map<string, number>();
    for (const t of tasks) counts.set(t.tag, (counts.get(t.tag) ?? 0) + 1);
    for (const [tag, ops] of operationsPerTag) {
      const share = (ops / tagEntries) * tasks.length;
      const actual = counts.get(tag) ?? 0;
      // Within 20% of the proportional share, or 3 tasks for the smallest tags.
      expect({ tag, off: Math.abs(actual - share) <= Math.max(3, 0.2 * share) }).toEqual({ tag, off: true });
      expect(actual).toBeGreaterThan(0);
    }
  });

  it('is phrased as people ask, not as the API documentation reads', () => {
    const summaries = new Set(
      [...operations.values()].map((op) => (op.summary ?? '').trim().toLowerCase().replace(/\.$/, '')),
    );
    const operationIds = [...operations.keys()];
    for (const t of tasks) {
      const text = t.task
        .trim()
        .toLowerCase()
        .replace(/[.?!]$/, '');
      expect({ id: t.id, copiesSummary: summaries.has(text) }).toEqual({ id: t.id, copiesSummary: false });
      expect({ id: t.id, namesOperation: operationIds.some((id) => t.task.includes(id)) }).toEqual({
        id: t.id,
        namesOperation: false,
      });
    }
  });

  it('covers every operation of the catalogue at least once', () => {
    const covered = new Set(tasks.flatMap((t) => t.expected));
    expect([...operations.keys()].filter((id) => !covered.has(id))).toEqual([]);
  });
});
