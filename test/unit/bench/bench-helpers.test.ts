import {
  checkedRow,
  formatNumber,
  formatTable,
  renderMarkdown,
  renderRows,
  unavailableRow,
} from '../../../bench/lib/report.util';
import {
  addedLatency,
  percentile,
  percentileSorted,
  scalingExponent,
  summarize,
} from '../../../bench/lib/stats.util';
import { mergeResults, runLoad } from '../../../bench/load/load-runner';
import { externalRows } from '../../../bench/run-bench';
import {
  giteaLinkHeader,
  ISSUE_TOTAL,
  parsePaging,
  startFakeGitea,
  type FakeGitea,
} from '../../../bench/upstream/fake-gitea';
import { startPassThrough } from '../../../bench/proxy/pass-through';

describe('bench stats', () => {
  it('computes nearest-rank percentiles', () => {
    const sample = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted
    expect(percentile(sample, 50)).toBe(50);
    expect(percentile(sample, 95)).toBe(95);
    expect(percentile(sample, 99)).toBe(99);
    expect(percentile(sample, 100)).toBe(100);
    expect(percentile(sample, 0)).toBe(1);
    expect(percentileSorted([7], 99)).toBe(7);
    expect(percentileSorted([1, 2, 3, 4], 50)).toBe(2);
    expect(Number.isNaN(percentile([], 50))).toBe(true);
    expect(() => percentile([1], 101)).toThrow(RangeError);
  });

  it('summarizes and subtracts a reference', () => {
    const s = summarize([3, 1, 2, 10]);
    expect(s).toMatchObject({ count: 4, min: 1, max: 10, p50: 2, p99: 10, mean: 4 });
    const ref = summarize([1, 1, 1, 1]);
    expect(addedLatency(s, ref)).toEqual({ p50: 1, p95: 9, p99: 9 });
  });

  it('estimates the scaling exponent of time against size', () => {
    const linear = [1, 2, 4, 8].map((size) => ({ size, ms: size * 3 }));
    const quadratic = [1, 2, 4, 8].map((size) => ({ size, ms: size * size }));
    expect(scalingExponent(linear)).toBeCloseTo(1, 5);
    expect(scalingExponent(quadratic)).toBeCloseTo(2, 5);
  });
});

describe('bench report', () => {
  it('formats numbers with their unit', () => {
    expect(formatNumber(0.4321, 'ms')).toBe('0.43 ms');
    expect(formatNumber(42.25, 'ms')).toBe('42.3 ms');
    expect(formatNumber(1234.4, 'req/s')).toBe('1234 req/s');
    expect(formatNumber(55.55, '%')).toBe('55.5 %');
    expect(formatNumber(Number.NaN, 'ms')).toBe('- ms');
  });

  it('checks a figure against its target, both directions', () => {
    expect(checkedRow('s', 'f', 0.9, 'ms', '<=', 1).verdict).toBe('PASS');
    expect(checkedRow('s', 'f', 1.1, 'ms', '<=', 1).verdict).toBe('FAIL');
    expect(checkedRow('s', 'f', 49, '%', '>=', 50)).toMatchObject({
      verdict: 'FAIL',
      target: '>= 50.0 %',
      value: '49.0 %',
    });
    expect(checkedRow('s', 'f', Number.NaN, 'ms', '<=', 1).verdict).toBe('FAIL');
  });

  it('aligns table columns', () => {
    const text = formatTable(
      ['A', 'Bee'],
      [
        ['long cell', 'x'],
        ['y', 'z'],
      ],
    );
    const lines = text.split('\n');
    expect(lines).toEqual(['A         | Bee', '----------+----', 'long cell | x', 'y         | z']);
  });

  it('renders rows as text and Markdown (pipes escaped)', () => {
    const rows = [
      checkedRow('lat', 'p50', 0.5, 'ms', '<=', 1),
      unavailableRow('secrets', 'a|b', 'not available yet'),
    ];
    const text = renderRows(rows);
    expect(text).toContain('PASS');
    expect(text).toContain('not available yet');
    const md = renderMarkdown(rows).split('\n');
    expect(md[0]).toBe('| Section | Figure | Value | Target | Result |');
    expect(md[3]).toBe('| secrets | a\\|b | not available yet |  | n/a |');
  });

  it('maps another bench result to rows, applying known targets', () => {
    const rows = externalRows('secrets', {
      recall: 0.97,
      realistic: { ms1MB: 12.5 },
      adversarial: { scalingExponent: 1.05 },
    });
    expect(rows.find((r) => r.figure === 'recall')).toMatchObject({ verdict: 'info' });
    expect(rows.find((r) => r.figure === 'realistic.ms1MB')).toMatchObject({
      verdict: 'FAIL',
      target: '<= 10.0 ms',
    });
    expect(rows.find((r) => r.figure === 'adversarial.scalingExponent')).toMatchObject({ verdict: 'PASS' });
  });
});

describe('bench upstream (fake Gitea)', () => {
  let gitea: FakeGitea;
  beforeAll(async () => {
    gitea = await startFakeGitea();
  });
  afterAll(async () => {
    await gitea.close();
  });

  it('builds Gitea Link headers: next,last then first,prev, query sorted', () => {
    const app = 'http://h/';
    const u = new URL('http://h/api/v1/repos/o/r/issues?state=open&limit=10&page=2');
    expect(giteaLinkHeader(app, u, 25, 10, 2)).toBe(
      '<http://h/api/v1/repos/o/r/issues?limit=10&page=3&state=open>; rel="next",' +
        '<http://h/api/v1/repos/o/r/issues?limit=10&page=3&state=open>; rel="last",' +
        '<http://h/api/v1/repos/o/r/issues?limit=10&page=1&state=open>; rel="first",' +
        '<http://h/api/v1/repos/o/r/issues?limit=10&page=1&state=open>; rel="prev"',
    );
    expect(giteaLinkHeader(app, new URL('http://h/x'), 5, 10, 1)).toBeNull();
    expect(giteaLinkHeader(app, new URL('http://h/x?page=3'), 25, 10, 3)).toBe(
      '<http://h/x?page=1>; rel="first",<http://h/x?page=2>; rel="prev"',
    );
  });

  it('reads paging like Gitea (defaults, cap at 50)', () => {
    expect(parsePaging(new URLSearchParams(''))).toEqual({ page: 1, limit: 30 });
    expect(parsePaging(new URLSearchParams('page=0&limit=500'))).toEqual({ page: 1, limit: 50 });
    expect(parsePaging(new URLSearchParams('page=3&limit=7'))).toEqual({ page: 3, limit: 7 });
  });

  it('serves a ~2 KB repository, identity, version, and a paginated list', async () => {
    const auth = { headers: { Authorization: 'token t' } };
    const repo = await fetch(`${gitea.url}/api/v1/repos/bench-org/bench-repo`, auth);
    const body = await repo.text();
    expect(repo.status).toBe(200);
    expect(body.length).toBeGreaterThan(1800);
    expect(body.length).toBeLessThan(2600);
    expect(JSON.parse(body)).toMatchObject({
      full_name: 'bench-org/bench-repo',
      owner: { login: 'bench-org' },
    });
    expect((await fetch(`${gitea.url}/api/v1/repos/bench-org/bench-repo`)).status).toBe(401);
    expect(await (await fetch(`${gitea.url}/api/v1/user`, auth)).json()).toMatchObject({
      login: 'bench-svc',
    });
    expect(await (await fetch(`${gitea.url}/api/v1/version`)).json()).toEqual({ version: '1.27.1' });

    const list = await fetch(`${gitea.url}/api/v1/repos/bench-org/bench-repo/issues?limit=50&page=3`, auth);
    const items = (await list.json()) as Array<{ number: number }>;
    expect(list.headers.get('x-total-count')).toBe(String(ISSUE_TOTAL));
    expect(items).toHaveLength(ISSUE_TOTAL - 100);
    expect(items[0]?.number).toBe(ISSUE_TOTAL - 100);
    expect(list.headers.get('link')).toBe(
      `<${gitea.url}/api/v1/repos/bench-org/bench-repo/issues?limit=50&page=1>; rel="first",` +
        `<${gitea.url}/api/v1/repos/bench-org/bench-repo/issues?limit=50&page=2>; rel="prev"`,
    );
    expect((await fetch(`${gitea.url}/api/v1/nope`, auth)).status).toBe(404);
  });

  it('is reachable unchanged through the pass-through proxy', async () => {
    const proxy = await startPassThrough(gitea.url);
    try {
      const res = await fetch(`${proxy.url}/api/v1/repos/bench-org/bench-repo/issues?page=1&limit=10`, {
        headers: { Authorization: 'token t' },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total-count')).toBe(String(ISSUE_TOTAL));
      expect(res.headers.get('link')).toContain('rel="next"');
      expect(((await res.json()) as unknown[]).length).toBe(10);
    } finally {
      await proxy.close();
    }
  });
});

describe('bench load runner', () => {
  it('bounds a run by count and reports errors', async () => {
    let n = 0;
    const res = await runLoad(
      async () => {
        n++;
        if (n % 5 === 0) throw new Error('boom');
      },
      { concurrency: 3, maxCalls: 20, maxMs: 5000 },
    );
    expect(res.latenciesMs.length + res.errors).toBe(20);
    expect(res.errors).toBe(4);
    expect(res.firstError).toBe('boom');
    const merged = mergeResults([res, res]);
    expect(merged.latenciesMs).toHaveLength(32);
    expect(merged.errors).toBe(8);
  });

  it('bounds a run by time', async () => {
    const res = await runLoad(() => new Promise((r) => setTimeout(r, 20)), {
      concurrency: 2,
      maxCalls: 1e6,
      maxMs: 100,
    });
    expect(res.latenciesMs.length).toBeLessThan(20);
    expect(res.elapsedMs).toBeLessThan(1000);
  });
});

describe('bench rows for the secrets and audit benches', () => {
  it('checks 1 MB masking against 10 ms and adversarial inputs for linearity', () => {
    const { secretsRows, auditRows } = jest.requireActual('../../../bench/run-bench');
    const rows = secretsRows({
      recall: 0.985,
      falsePositiveRate: 0,
      corpus: { positives: 400, negatives: 400, formats: 60 },
      throughput: {
        json1MB: { bytes: 1, medianMs: 12, mbPerSecond: 80, masks: 1 },
        text1MB: { bytes: 1, medianMs: 4, mbPerSecond: 250, masks: 1 },
        adversarial: [{ name: 'run', msSmall: 1, msLarge: 20, ratio: 20, linear: false }],
      },
    });
    expect(rows.find((r: { figure: string }) => r.figure.startsWith('recall'))).toMatchObject({
      value: '98.5 %',
    });
    expect(rows.find((r: { figure: string }) => r.figure === 'mask 1 MB Gitea JSON result')).toMatchObject({
      verdict: 'FAIL',
    });
    expect(rows.find((r: { figure: string }) => r.figure === 'mask 1 MB plain text')).toMatchObject({
      verdict: 'PASS',
    });
    expect(rows.find((r: { figure: string }) => r.figure.includes('"run"'))).toMatchObject({
      verdict: 'FAIL',
    });
    expect(
      auditRows({
        database: 'pglite',
        recordsPerSecond: 1000,
        recordP50Ms: 0.01,
        recordP99Ms: 0.2,
        batchSize: 100,
      }),
    ).toHaveLength(3);
  });
});

describe('held-out rows of the secrets bench', () => {
  it('prints two decimals and the counts, and judges by the counts (98.96 % is not a pass)', () => {
    const { heldOutRows } = jest.requireActual('../../../bench/run-bench');
    const base = { secrets: 2315, formats: 313, negatives: 650, falsePositiveRate: 0 };
    const [fail, fp] = heldOutRows('secrets', {
      ...base,
      recall: 1 - 24 / 2315,
      missed: 24,
      falsePositives: 0,
    });
    expect(fail).toMatchObject({ value: '98.96 % (24 missed, at most 23)', verdict: 'FAIL' });
    expect(fp).toMatchObject({ value: '0.00 % (0 flagged, at most 3)', verdict: 'PASS' });
    const [pass] = heldOutRows('secrets', { ...base, recall: 1 - 23 / 2315 });
    expect(pass).toMatchObject({ value: '99.01 % (23 missed, at most 23)', verdict: 'PASS' });
  });
});
