import { loadBundledSpec } from '../../../src/core/catalogue/spec-loader';
import { buildCatalogue } from '../../../src/core/catalogue/tool-catalogue';
import {
  CatalogueSearch,
  measureSearchAccuracy,
  type DiscoveryTask,
} from '../../../src/core/catalogue/discovery-search';
import { discoverySearchAccuracy, toolListSizes } from '../../../src/core/catalogue/catalogue-metrics';
import tasks from './discovery-tasks.json';

describe('CatalogueSearch', () => {
  const catalogue = buildCatalogue(loadBundledSpec(), { maxBinaryBytes: 1024 });
  const search = new CatalogueSearch(catalogue.operations);

  it('finds the operation for at least 90% of the task list in the top 3', () => {
    const result = measureSearchAccuracy(search, tasks as DiscoveryTask[]);
    if (result.misses.length)
      console.log(`top-3 accuracy ${result.hits}/${result.total}`, JSON.stringify(result.misses, null, 1));
    expect(result.total).toBeGreaterThanOrEqual(60);
    expect(result.accuracy).toBeGreaterThanOrEqual(0.9);
  });

  it.each([
    ['list my PRs', ['issueSearchIssues', 'repoListPullRequests']],
    ['close this ticket', ['issueEditIssue']],
    ['add a CI variable', ['createRepoVariable', 'createOrgVariable', 'createUserVariable']],
    ['which user am I', ['userGetCurrent']],
    ['remove that branch', ['repoDeleteBranch']],
  ])('"%s" ranks an expected operation in the top 3', (query, expected) => {
    const names = search.search(query, 3).map((h) => h.name);
    expect(names.some((n) => expected.includes(n))).toBe(true);
  });

  it('honours the allowed filter and returns nothing for an empty query', () => {
    expect(search.search('   ', 5)).toEqual([]);
    const hits = search.search('delete branch', 5, (op) => op.method === 'GET');
    expect(hits.every((h) => h.method === 'GET')).toBe(true);
  });
});

describe('benchmark helpers', () => {
  it('measures tools/list size in both modes and the search accuracy', () => {
    const sizes = toolListSizes();
    console.log(
      `tools/list: full ${sizes.full.tools} tools ${sizes.full.bytes} B (~${sizes.full.approxTokens} tokens); discovery ${sizes.discovery.tools} tools ${sizes.discovery.bytes} B (~${sizes.discovery.approxTokens} tokens)`,
    );
    expect(sizes.full.tools).toBe(486);
    expect(sizes.discovery.tools).toBe(4);
    expect(sizes.discovery.approxTokens).toBeLessThan(3000);
    expect(sizes.full.bytes / sizes.discovery.bytes).toBeGreaterThan(50);
    expect(discoverySearchAccuracy(tasks as DiscoveryTask[]).accuracy).toBeGreaterThanOrEqual(0.9);
  });
});
