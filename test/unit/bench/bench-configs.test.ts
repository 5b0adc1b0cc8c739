import {
  redactUrl,
  resolveProduction,
  scratchName,
  scratchPid,
  withDatabase,
  withRedisDb,
} from '../../../bench/lib/production-services';
import {
  checkedRow,
  forConfig,
  infoRow,
  markdownTable,
  sideBySideCells,
  unavailableRow,
} from '../../../bench/lib/report.util';

const CONFIGS = [
  { key: 'embedded', title: 'embedded' },
  { key: 'production', title: 'production' },
];

describe('bench side-by-side table', () => {
  it('puts each configuration of a figure on one line, references under both', () => {
    const rows = [
      forConfig(infoRow('lat', 'direct p50 (reference)', 0.5, 'ms'), '*'),
      forConfig(checkedRow('lat', 'added p50', 0.8, 'ms', '<=', 1), 'embedded'),
      forConfig(checkedRow('lat', 'added p50', 1.4, 'ms', '<=', 1), 'production'),
      forConfig(checkedRow('lat', 'masking off: added p50', 0.7, 'ms', '<=', 1), 'embedded'),
      infoRow('secrets', 'recall', 100, '%'),
    ];
    const { headers, cells } = sideBySideCells(rows, CONFIGS);
    expect(headers).toEqual(['Section', 'Figure', 'Target', 'embedded', 'Result', 'production', 'Result']);
    expect(cells).toEqual([
      ['lat', 'direct p50 (reference)', '', '0.50 ms', '', '0.50 ms', ''],
      ['lat', 'added p50', '<= 1.00 ms', '0.80 ms', 'PASS', '1.40 ms', 'FAIL'],
      ['lat', 'masking off: added p50', '<= 1.00 ms', '0.70 ms', 'PASS', '-', ''],
    ]);
  });

  it("names each configuration's target when they differ (RSS: 300 MB embedded, 200 MB production)", () => {
    const rows = [
      forConfig(checkedRow('catalogue', 'RSS after load', 268, 'MB', '<=', 300), 'embedded'),
      forConfig(checkedRow('catalogue', 'RSS after load', 257, 'MB', '<=', 200), 'production'),
      forConfig(checkedRow('lat', 'share', 40, '%', '>=', 70), 'embedded'),
      forConfig(checkedRow('lat', 'share', 30, '%', '>=', 70), 'production'),
    ];
    const { cells } = sideBySideCells(rows, CONFIGS);
    expect(cells).toEqual([
      [
        'catalogue',
        'RSS after load',
        '<= 300 MB (embedded) / <= 200 MB (production)',
        '268 MB',
        'PASS',
        '257 MB',
        'FAIL',
      ],
      ['lat', 'share', '>= 70.0 %', '40.0 %', 'FAIL', '30.0 %', 'FAIL'],
    ]);
  });

  it('says in one row that a configuration was not measured', () => {
    const rows = [
      forConfig(unavailableRow('sidecar', 'production configuration', 'not measured: no URLs'), 'production'),
    ];
    const { cells } = sideBySideCells(rows, CONFIGS);
    expect(cells).toEqual([
      ['sidecar', 'production configuration', '', '-', '', 'not measured: no URLs', 'n/a'],
    ]);
    expect(markdownTable(['A', 'B'], [['x|y', 'z']]).split('\n')).toEqual([
      '| A | B |',
      '|---|---|',
      '| x\\|y | z |',
    ]);
  });
});

describe('bench production configuration', () => {
  it('derives URLs for a scratch database and a Redis db index, credentials hidden', () => {
    const pg = 'postgresql://user:pw@127.0.0.1:5432/aegis_test';
    expect(withDatabase(pg, 'aegis_bench_1_x')).toBe('postgresql://user:pw@127.0.0.1:5432/aegis_bench_1_x');
    expect(withRedisDb('redis://127.0.0.1:6379', 15)).toBe('redis://127.0.0.1:6379/15');
    expect(withRedisDb('redis://127.0.0.1:6379/2', 15)).toBe('redis://127.0.0.1:6379/15');
    expect(redactUrl(pg)).toBe('postgresql://user:***@127.0.0.1:5432/aegis_test');
  });

  it('finds the pid in its own scratch database names only', () => {
    const name = scratchName(4242, 1_700_000_000_000);
    expect(name).toMatch(/^aegis_bench_4242_[0-9a-z]+$/);
    expect(scratchPid(name)).toBe(4242);
    expect(scratchPid('aegis_test')).toBeNull();
    expect(scratchPid('aegis_bench_x_1')).toBeNull();
  });

  it('uses BENCH_* as given, needs both, and explains when nothing is set', async () => {
    const given = await resolveProduction({
      BENCH_DATABASE_URL: 'postgresql://a:b@db:5432/x',
      BENCH_REDIS_URL: 'redis://cache:6379/3',
    });
    expect(given.services).toMatchObject({
      databaseUrl: 'postgresql://a:b@db:5432/x',
      redisUrl: 'redis://cache:6379/3',
    });
    expect(given.services?.source).not.toContain(':b@');
    expect((await resolveProduction({ BENCH_DATABASE_URL: 'postgresql://db/x' })).reason).toMatch(/both/);
    expect((await resolveProduction({})).reason).toMatch(/BENCH_DATABASE_URL \+ BENCH_REDIS_URL/);
    expect(
      (
        await resolveProduction({
          TEST_DATABASE_URL: 'postgresql://db/x',
          TEST_REDIS_URL: 'redis://c',
          BENCH_REDIS_DB: 'x',
        })
      ).reason,
    ).toMatch(/BENCH_REDIS_DB/);
  });
});
