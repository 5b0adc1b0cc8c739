// A large body is finished whole in a worker thread (ADR 0018): decoding, shaping, both secret
// layers, bounds and serialisation. Same text as on the event loop, the body's bytes moved (not
// copied) to the thread, non-UTF-8 bodies still scanned, cursors accepted by the service's codec.
import { scrubResultAsync } from '../../../src/core/secrets';
import { CursorCodec, cursorSubject } from '../../../src/core/envelope/cursor';
import { finishSuccess, type SuccessInput } from '../../../src/core/executor/success-result';
import { ScrubWorkerPool } from '../../../src/infra/secrets/scrub-worker-pool';
import { DEFAULT_CONTAINER_POLICY } from '../../../src/core/secrets';

const token = ['gh', 'p_'].join('') + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
const exact = 'exact-secret-value-123';

function input(body: Uint8Array, contentType: string, mode: 'mask' | 'block' = 'mask'): SuccessInput {
  return {
    op: {
      operationId: 'repoGetRawFile',
      listResult: false,
      paging: null,
      countField: null,
      responseHeaders: [],
      listField: null,
    },
    byteRangeOp: true,
    byteRangeArg: 'byte_range',
    rawToolName: 'gitea_api_request',
    request: { method: 'GET', path: '/repos/o/r/raw/big.log', query: [], headers: {} },
    response: {
      status: 200,
      headers: { 'content-type': contentType, 'content-length': String(body.length) },
      body,
    },
    identity: {
      login: 'alice',
      mode: 'token',
      sudo: null,
      token: 'tok-abc',
      isSiteAdmin: false,
      subject: 'token:alice',
    },
    call: {
      name: 'repoGetRawFile',
      args: { owner: 'o', repo: 'r', filepath: 'big.log' },
      options: { fields: null, format: 'json', cursor: null },
      offset: null,
    },
    scrub: { exactSecrets: [exact, 'tok-abc'], mode, skipPatterns: false },
    limits: {
      maxBinaryBytes: 4 << 20,
      maxResponseItems: 100,
      maxResponseChars: 100_000,
      maxTextBytes: 400_000,
      hygieneFiles: 'flag',
    },
  };
}

function bigText(): string {
  const line = 'INFO worker processed job in 12 ms, queue depth 3\n';
  return line.repeat(200) + `leaked ${token} and ${exact}\n` + line.repeat(7800);
}

describe('finishing a large result off the event loop', () => {
  // The idle timeout stays far above a thread's start: from the TypeScript sources with a cold
  // transpile cache (a changed source file) the thread takes 1.5-2 s to load, and an idle timeout
  // shorter than that ended the thread under its first task ("Unexpected message from Worker").
  const pool = new ScrubWorkerPool({ threads: 1, minBytes: 1024, idleTimeoutMs: 60_000 });
  afterAll(() => pool.close(), 60_000);
  const codec = new CursorCodec('cursor-secret-for-tests', () => 1_000);
  const here = (i: SuccessInput) =>
    finishSuccess(i, {
      cursors: codec,
      scrub: (v, ctx) => scrubResultAsync(v, { ...ctx, containers: DEFAULT_CONTAINER_POLICY }),
    });

  it('answers with the same text as on the event loop, and moves the body to the thread', async () => {
    const bytes = new Uint8Array(Buffer.from(bigText()));
    const copy = new Uint8Array(bytes);
    const local = await here(input(copy, 'text/plain; charset=utf-8'));
    const task = {
      input: input(bytes, 'text/plain; charset=utf-8'),
      cursorKey: codec.exportKey(),
      now: 1_000,
    };
    const inWorker = await pool.finish(task, DEFAULT_CONTAINER_POLICY);
    expect(inWorker).toEqual(local);
    if ('failure' in inWorker) throw new Error('unexpected failure');
    expect(inWorker.text).not.toContain(token);
    expect(inWorker.text).not.toContain(exact);
    expect(inWorker.counts.redactions + inWorker.counts.masks).toBeGreaterThan(1);
    // moved, not copied: the buffer here is detached
    expect(bytes.byteLength).toBe(0);
    // the page's cursor is one the service's own codec accepts
    const cursor = (JSON.parse(inWorker.text) as { range?: { next_cursor?: string } }).range?.next_cursor;
    expect(typeof cursor).toBe('string');
    expect(codec.decode(cursor, cursorSubject(task.input.identity)).offset).toBeGreaterThan(0);
  }, 60_000);

  it('scans a UTF-16 body in the thread, and block mode withholds it', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(bigText(), 'utf16le')]);
    const masked = await pool.finish(
      { input: input(new Uint8Array(utf16), 'text/plain'), cursorKey: codec.exportKey(), now: 1_000 },
      DEFAULT_CONTAINER_POLICY,
    );
    if ('failure' in masked) throw new Error('unexpected failure');
    expect(masked.text).not.toContain(token);
    expect(masked.counts.redactions + masked.counts.masks).toBeGreaterThan(0);
    const blocked = await pool.finish(
      {
        input: input(new Uint8Array(utf16), 'text/plain', 'block'),
        cursorKey: codec.exportKey(),
        now: 1_000,
      },
      DEFAULT_CONTAINER_POLICY,
    );
    if ('failure' in blocked) throw new Error('unexpected failure');
    expect(blocked.kind).toBe('secret_blocked');
    expect(blocked.isError).toBe(true);
    expect(blocked.text).not.toContain(token);
  }, 60_000);

  it('copies a view into a shared buffer instead of moving it', async () => {
    const shared = Buffer.alloc(bigText().length + 16);
    shared.write(bigText(), 8);
    const view = shared.subarray(8, 8 + Buffer.byteLength(bigText()));
    const out = await pool.finish(
      { input: input(view, 'text/plain; charset=utf-8'), cursorKey: codec.exportKey(), now: 1_000 },
      DEFAULT_CONTAINER_POLICY,
    );
    expect(shared.byteLength).toBeGreaterThan(0);
    expect('failure' in out).toBe(false);
  }, 60_000);

  it('stops when the call is abandoned, and goes on working', async () => {
    const abandon = new AbortController();
    const run = pool.finish(
      {
        input: input(new Uint8Array(Buffer.from(bigText())), 'text/plain'),
        cursorKey: codec.exportKey(),
        now: 1_000,
      },
      DEFAULT_CONTAINER_POLICY,
      abandon.signal,
    );
    abandon.abort();
    await expect(run).rejects.toThrow(/abort/i);
    const after = await pool.finish(
      {
        input: input(new Uint8Array(Buffer.from(bigText())), 'text/plain'),
        cursorKey: codec.exportKey(),
        now: 1_000,
      },
      DEFAULT_CONTAINER_POLICY,
    );
    expect('failure' in after).toBe(false);
  }, 60_000);
});
