// Archives go to the scan worker by what their scan reads, not by their compressed size (ADR 0018):
// a small zip whose members inflate past SECRET_SCAN_WORKER_MIN_BYTES is scanned off the event loop.
import { containerWorkBytes, scrubResultAsync } from '../../../src/core/secrets';
import {
  closeScrubWorkers,
  resolveResultScrubber,
  scanWorkBytes,
  scrubWorkerThreads,
} from '../../../src/modules/tools/result-scrubber.provider';
import { tarGz, zip } from '../../simulator/git.util';

const MiB = 1 << 20;
const token = ['gh', 'p_'].join('') + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
/** Repetitive text: deflates to a few KB. */
const member = (n: number): Buffer => Buffer.from('deploy log line: runner started\n'.repeat(n));

describe('containerWorkBytes', () => {
  it('reads a zip by the uncompressed sizes in its central directory', () => {
    const tree = new Map([
      ['a.log', member(10_000)],
      ['b.log', member(10_000)],
    ]);
    const z = zip('repo', tree);
    expect(z.length).toBeLessThan(10_000);
    expect(containerWorkBytes(z, 32 * MiB)).toBe(2 * member(10_000).length);
  });

  it('reads a gzip stream (tar.gz) by its ISIZE trailer', () => {
    const tgz = tarGz('repo', new Map([['a.log', member(20_000)]]), '2026-01-01T00:00:00Z');
    expect(tgz.length).toBeLessThan(10_000);
    // the tar: one header block, the member padded to 512, two end blocks
    expect(containerWorkBytes(tgz, 32 * MiB)).toBe(512 + Math.ceil(member(20_000).length / 512) * 512 + 1024);
  });

  it('caps at the scan budget, counts what cannot be read as the whole budget, and other bodies as they are', () => {
    const z = zip('repo', new Map([['a.log', member(100_000)]]));
    expect(containerWorkBytes(z, 1 * MiB)).toBe(1 * MiB);
    const cut = z.subarray(0, z.length - 22); // no end-of-central-directory record
    expect(containerWorkBytes(cut, 8 * MiB)).toBe(8 * MiB);
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4, 5, 6]);
    expect(containerWorkBytes(png, 8 * MiB)).toBe(png.length);
  });
});

describe('routing of archives to the scan worker', () => {
  afterAll(() => closeScrubWorkers(), 60_000);
  const policy = { mode: 'scan' as const, maxBytes: 32 * MiB, maxMembers: 10_000 };
  const ctx = { exactSecrets: ['exact-secret-value-123'], mode: 'mask' as const, skipPatterns: false };

  it('counts a binary body by its expanded size, a text body by its own size', () => {
    const z = zip('repo', new Map([['a.log', member(20_000)]]));
    expect(scanWorkBytes({ bytes: z.length, binary: true, body: z }, policy)).toBe(member(20_000).length);
    expect(scanWorkBytes({ bytes: z.length, binary: false, body: z }, policy)).toBe(z.length);
    expect(scanWorkBytes({ bytes: z.length, binary: true, body: z }, { ...policy, mode: 'withhold' })).toBe(
      z.length,
    );
  });

  it('scans a small zip of large members in the worker, a small zip of small members on the event loop', async () => {
    const scrubber = resolveResultScrubber({
      secrets: {
        detectionMode: 'mask',
        encryptionKey: null,
        previousEncryptionKeys: [],
        scanWorkers: 1,
        scanWorkerMinBytes: 256 * 1024,
      },
    } as unknown as Parameters<typeof resolveResultScrubber>[0]);
    const envelope = (z: Buffer) => ({ status: 200, data: { content_base64: z.toString('base64') } });
    const call = (z: Buffer) =>
      scrubber.scrubResultAsync!(envelope(z), ctx, { bytes: z.length, binary: true, body: z });

    const small = zip('repo', new Map([['notes.txt', Buffer.from(`hello\nleaked ${token}\n`)]]));
    const smallResult = await call(small);
    expect(smallResult.blocked).not.toBeNull();
    expect(scrubWorkerThreads()).toBe(0);

    const large = zip(
      'repo',
      new Map([
        ['a.log', member(20_000)],
        ['b.log', Buffer.concat([member(20_000), Buffer.from(`leaked ${token}\n`)])],
      ]),
    );
    expect(large.length).toBeLessThan(256 * 1024);
    const inWorker = await call(large);
    expect(scrubWorkerThreads()).toBe(1);
    // the same verdict as the scan on the event loop: withheld, naming the member
    const here = await scrubResultAsync(envelope(large), { ...ctx, containers: policy });
    expect(inWorker.blocked).toEqual(here.blocked);
    expect(inWorker.blocked?.reason).toContain('b.log');
  }, 60_000);
});
