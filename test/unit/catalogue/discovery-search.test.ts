import { loadBundledSpec } from '../../../src/infra/gitea/spec-source';
import { buildCatalogue } from '../../../src/core/catalogue/tool-catalogue';
import {
  CatalogueSearch,
  isFilePath,
  measureSearchAccuracy,
  oneEditApart,
  replaceFilePaths,
  type DiscoveryTask,
} from '../../../src/core/catalogue/discovery-search';
import { discoverySearchAccuracy, toolListSizes } from '../../../src/core/catalogue/catalogue-metrics';
import { encoderWords } from '../../../src/infra/embeddings/minilm-encoder';
import tasks from './discovery-tasks.json';
import added from './discovery-tasks-added.json';
import added2 from './discovery-tasks-added-2.json';
import blind from './discovery-tasks-blind.json';

// The tuning set: the project's own task list plus the tasks added with issue 17 (all written by the
// search's author; the held-out set in bench/discovery/heldout is measured by `npm run bench` only).
const tuning = [...tasks, ...added, ...added2] as DiscoveryTask[];

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

  it('tuning set (360 tasks): top-3 >= 95 %, top-1 >= 80 %', () => {
    const top3 = measureSearchAccuracy(search, tuning, 3);
    const top1 = measureSearchAccuracy(search, tuning, 1);
    expect(top3.total).toBeGreaterThanOrEqual(350);
    expect(top3.accuracy).toBeGreaterThanOrEqual(0.95);
    expect(top1.accuracy).toBeGreaterThanOrEqual(0.8);
  });

  // Written blind from the swagger by a helper who never saw the search (see README.md here).
  // Before this round of changes the search reached top-1 67.8 % and top-3 81.3 % on it.
  it('blind tuning set (782 tasks): top-1 >= 72 %, top-3 >= 86 %', () => {
    const set = blind as DiscoveryTask[];
    expect(set.length).toBe(782);
    expect(measureSearchAccuracy(search, set, 1).accuracy).toBeGreaterThanOrEqual(0.72);
    expect(measureSearchAccuracy(search, set, 3).accuracy).toBeGreaterThanOrEqual(0.86);
  });

  it.each([
    // typos: the known word one edit away
    ['mrege PR 5', 'repoMergePullRequest'],
    ['lsit the branches of acme/web', 'repoListBranches'],
    // a request wrapped in politeness is the request
    ['could you please delete the branch old-stuff in acme/web', 'repoDeleteBranch'],
    ['can you help me set up a webhook for acme/web', 'repoCreateHook'],
    // a PR's assignees, labels and locks live on its issue
    ['assign PR 30 to me', 'issueAddAssignees'],
    // quoted text is what to write, not what to do
    ["create an issue in acme/web titled 'delete the webhook'", 'issueCreateIssue'],
    // a GET whose name is plural lists (its answer is an object holding the list)
    ['list my runners', 'getUserRunners'],
    // more verbs for the same actions
    ['deactivate webhook 4 in acme/web', 'repoEditHook'],
  ])('"%s" ranks %s first', (query, expected) => {
    expect(search.search(query, 3)[0]!.name).toBe(expected);
  });

  // The corrector once read "main" as "mail", "text" as "test", "node" and "core" as "code": a word
  // of the language (the encoder's WordPiece vocabulary) is never a typo.
  it('never corrects a real word, and still corrects a typo', () => {
    const words = new CatalogueSearch(catalogue.operations, { knownWords: encoderWords });
    const real = 'list commits on main, edit the text of the node core wiki page';
    expect(words.correctTypos(real)).toBe(real);
    expect(words.correctTypos('mrege PR 5 and lsit the branches')).toBe('merge PR 5 and list the branches');
    expect(words.search('list commits on main', 3)[0]!.name).toBe('repoGetAllCommits');
    expect(words.search('mrege PR 5', 3)[0]!.name).toBe('repoMergePullRequest');
  });

  it.each([
    // the thing a task names is a thing the catalogue acts on ("spam" is not; the ticket is)
    ['permanently remove spam ticket 1450 from acme/web', 'issueDelete'],
    // what follows the first clause is context ("it's resolved" is not the resolve operation)
    ["lock PR 58, it's resolved", 'issueLockIssue'],
    // with nothing else named, owner/repo is the thing
    ['change the description of acme/api', 'repoEdit'],
  ])('"%s" ranks %s in the top 3', (query, expected) => {
    expect(search.search(query, 3).map((h) => h.name)).toContain(expected);
  });

  it('reads "show me" as a request to see, not as the current user', () => {
    expect(CatalogueSearch.expand('show me the branches of acme/web').current).toBe(false);
    expect(CatalogueSearch.expand('show me my repositories').current).toBe(true);
  });

  it('one edit apart: a letter added, dropped, changed, or two neighbours swapped', () => {
    expect(oneEditApart('mrege', 'merge')).toBe(true);
    expect(oneEditApart('delte', 'delete')).toBe(true);
    expect(oneEditApart('shwo', 'show')).toBe(true);
    expect(oneEditApart('lists', 'list')).toBe(true);
    expect(oneEditApart('merge', 'merge')).toBe(false);
    expect(oneEditApart('mrgee', 'merge')).toBe(false);
    expect(oneEditApart('branch', 'brunch!')).toBe(false);
  });

  // The misses found when the service was tried by a new user (issue 17), each with the opposite or
  // unrelated action that used to come first.
  it.each([
    [
      'create a new repository',
      ['createCurrentUserRepo', 'createOrgRepo'],
      ['repoCreateTag', 'repoCreateWikiPage'],
    ],
    ['edit a file', ['repoUpdateFile', 'repoChangeFiles'], ['repoGetRawFile', 'repoGetContents']],
    [
      'stop watching a repo',
      ['userCurrentDeleteSubscription'],
      ['issueStopStopWatch', 'issueDeleteStopWatch'],
    ],
    [
      'set up a webhook',
      ['repoCreateHook', 'orgCreateHook', 'userCreateHook'],
      ['repoEditHook', 'orgEditHook'],
    ],
    ['readme', ['repoGetContents', 'repoGetRawFile', 'repoGetRawFileOrLFS'], []],
    ['star a repository', ['userCurrentPutStar'], ['userCurrentDeleteStar']],
    ['follow a user', ['userCurrentPutFollow'], ['userCurrentDeleteFollow']],
    ['create a new issue', ['issueCreateIssue'], ['issueCreateComment']],
    ['unstar octo/cli', ['userCurrentDeleteStar'], ['userCurrentPutStar']],
    ['unfollow bob', ['userCurrentDeleteFollow'], ['userCurrentPutFollow']],
    ['get rid of the stale feature branch', ['repoDeleteBranch'], ['repoCreateBranch', 'repoGetBranch']],
    // "stop <doing something>" undoes it (ADR 0020, revision 4); before, the GET came first
    [
      'stop mirroring acme/web to the GitHub remote',
      ['repoDeletePushMirror'],
      ['repoGetPushMirrorByRemoteName', 'repoAddPushMirror'],
    ],
    ['stop notifying me about issue 9', ['issueDeleteSubscription'], ['issueAddSubscription', 'issueDelete']],
    ['quit emailing me about PR 12', ['issueDeleteSubscription'], ['userListEmails']],
    ['stop issue 3 from blocking issue 8', ['issueRemoveIssueBlocking'], ['issueCreateIssueBlocking']],
    // ADR 0020, revision 9: "people following me" are my followers (before: the users I follow first),
    // and notifications about everything in a repository are watching it (before: the notification list).
    ['list people following me', ['userCurrentListFollowers'], ['userCurrentListFollowing']],
    ['users following bob', ['userListFollowers'], ['userListFollowing']],
    [
      'who am I following',
      ['userCurrentCheckFollowing', 'userCurrentListFollowing'],
      ['userCurrentListFollowers'],
    ],
    [
      'notify me about everything that happens in acme/web',
      ['userCurrentPutSubscription'],
      ['notifyGetRepoList', 'userCurrentCheckSubscription'],
    ],
    ['notifications for acme/web', ['notifyGetRepoList'], ['userCurrentPutSubscription']],
    [
      're-open discussion on locked issue 8 so people can comment',
      ['issueUnlockIssue'],
      ['issueEditComment'],
    ],
    ['reopen issue 4', ['issueEditIssue'], ['issueUnlockIssue']],
  ])('"%s" ranks %j first, never %j', (query, expected, wrong) => {
    const names = search.search(query, 3).map((h) => h.name);
    expect(expected).toContain(names[0]);
    for (const w of wrong) expect(names[0]).not.toBe(w);
  });

  it('reads the action from the task: opposite verbs give opposite methods', () => {
    const first = (q: string) => search.search(q, 1)[0]!;
    expect(first('star acme/webapp').method).toBe('PUT');
    expect(first('unstar acme/webapp').method).toBe('DELETE');
    expect(first('watch acme/webapp').method).toBe('PUT');
    expect(first('stop watching acme/webapp').method).toBe('DELETE');
    expect(first('add a collaborator to acme/webapp').method).toBe('PUT');
    expect(first('remove a collaborator from acme/webapp').method).toBe('DELETE');
    expect(first('list the collaborators of acme/webapp').method).toBe('GET');
  });

  it('recognises owner/repo as a repository and drops the names from the terms', () => {
    const intent = CatalogueSearch.expand('list the branches of acme/webapp');
    expect(intent.scope).toBe('repo');
    expect([...intent.terms.keys()]).not.toContain('acme');
    expect(intent.action).toBe('list');
  });

  // ADR 0020, revision 8: before, a path was read as owner/repo ("repo"), and these ranked an edit
  // of the repository or of an issue's reaction first, the file operation not in the top 5.
  it('reads a file path as a file in a repository, not as owner/repo', () => {
    for (const p of ['config/app.json', 'src/index.ts', '.gitea/workflows/ci.yaml', 'a/b/c', 'docs/old.md.'])
      expect(isFilePath(p)).toBe(true);
    for (const p of ['acme/webapp', 'release/1.4', 'github.com/foo/bar', 'bob/dotfiles', 'acme/web.git'])
      expect(isFilePath(p)).toBe(false);
    const intent = CatalogueSearch.expand('update src/index.ts');
    expect(intent.scope).toBe('repo');
    expect(intent.terms.has('file')).toBe(true);
    expect(intent.ownerRepo).toBe(false);
  });

  // ADR 0020, revision 9: a two-part name that a folder word names is a folder, not owner/repo.
  it('reads a name a folder word names as a path ("the src/handlers folder")', () => {
    expect(replaceFilePaths("what's inside the src/handlers folder on main?", 'the file')).toBe(
      "what's inside the the file folder on main?",
    );
    expect(replaceFilePaths('list the directory docs/api in acme/web', 'X')).toBe(
      'list the directory X in acme/web',
    );
    expect(replaceFilePaths('list the files in acme/web', 'X')).toBe('list the files in acme/web');
    expect(replaceFilePaths('clone the github.com/foo folder', 'X')).toBe('clone the github.com/foo folder');
    expect(CatalogueSearch.expand('list the folder docs/api in acme/web').terms.has('file')).toBe(true);
  });

  it.each([
    ['update src/index.ts in acme/web', 'repoUpdateFile'],
    ['remove docs/legacy.md from acme/web', 'repoDeleteFile'],
  ])('"%s" ranks %s first (a path is a file)', (query, expected) => {
    expect(search.search(query, 3)[0]!.name).toBe(expected);
  });

  // ADR 0020, revision 8: a version names a tag, release notes are the release. Before, these
  // ranked repoListReleases and repoDelete (the repository!) first.
  it.each([
    ['release notes for v2.3.1', 'repoGetReleaseByTag'],
    ['delete v0.9.1 from acme/cli', 'repoDeleteTag'],
  ])('"%s" ranks %s first (a version is a tag)', (query, expected) => {
    expect(search.search(query, 3)[0]!.name).toBe(expected);
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
    const sizes = toolListSizes(loadBundledSpec());
    console.log(
      `tools/list: full ${sizes.full.tools} tools ${sizes.full.bytes} B (~${sizes.full.approxTokens} tokens); discovery ${sizes.discovery.tools} tools ${sizes.discovery.bytes} B (~${sizes.discovery.approxTokens} tokens)`,
    );
    expect(sizes.full.tools).toBe(486);
    expect(sizes.discovery.tools).toBe(4);
    expect(sizes.discovery.approxTokens).toBeLessThan(3000);
    expect(sizes.full.bytes / sizes.discovery.bytes).toBeGreaterThan(50);
    expect(
      discoverySearchAccuracy(tasks as DiscoveryTask[], 3, loadBundledSpec()).accuracy,
    ).toBeGreaterThanOrEqual(0.9);
  });
});
