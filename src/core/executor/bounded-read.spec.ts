// Issue 12 point 3: a file-content call asks Gitea for the budget up front with a Range, and what
// the caller sees is the same whichever answer Gitea gives (206, 200 when it ignores Range, 416).
import type { GiteaRequest, GiteaResponse } from '../ports';
import { secretsScrubber, testToolService, tokenCaller } from '../testing/tool-service-fixture';
import { boundedRange } from './bounded-read';

const alice = tokenCaller({ token: 'a'.repeat(40), subject: 'token:alice' });
const MAX_TEXT = 400_000; // 4 x MAX_TOOL_RESPONSE_CHARS (100_000)
const LINE = '2026-11-30T10:00:00Z INFO worker processed job in 12 ms, queue depth 3\n';
const file = Buffer.from(LINE.repeat(Math.ceil(1_000_000 / LINE.length)));
const args = { owner: 'acme', repo: 'webapp', filepath: 'big.log' };

type Answer = Partial<GiteaResponse>;

/** Gitea's ServeUserContentByReader (modules/httplib/serve.go): 206 + Content-Range, 416, 200 when empty. */
function giteaRaw(data: Buffer, contentType = 'text/plain; charset=utf-8') {
  return (req: GiteaRequest): Answer => {
    const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    if (!m || data.length === 0)
      return {
        status: 200,
        headers: { 'content-type': contentType, 'content-length': String(data.length) },
        body: data,
      };
    const start = Number(m[1]);
    if (start >= data.length)
      return {
        status: 416,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        body: Buffer.from('invalid start range\n'),
      };
    const end = Math.min(data.length - 1, m[2] ? Number(m[2]) : data.length - 1);
    return {
      status: 206,
      headers: {
        'content-type': contentType,
        'content-range': `bytes ${start}-${end}/${data.length}`,
        'content-length': String(end - start + 1),
      },
      body: data.subarray(start, end + 1),
    };
  };
}

/** A transport that stops reading a text body at MAX_TEXT_BODY_BYTES, as the real one does. */
function cutAtBudget(answer: (req: GiteaRequest) => Answer) {
  return (req: GiteaRequest): Answer => {
    const a = answer(req);
    const body = a.body ?? new Uint8Array();
    if (body.length <= MAX_TEXT || !/^text\//.test(a.headers?.['content-type'] ?? '')) return a;
    const declared = Number(a.headers?.['content-length'] ?? NaN);
    return {
      ...a,
      body: body.subarray(0, MAX_TEXT),
      cut: { receivedBytes: MAX_TEXT, totalBytes: Number.isFinite(declared) ? declared : null },
    };
  };
}

function setup(answer: (req: GiteaRequest) => Answer, maxBinaryBytes = 4 * 1024 * 1024) {
  const t = testToolService({
    tools: { maxResponseItems: 100, maxResponseChars: 100_000, maxBinaryBytes },
    reply: cutAtBudget(answer),
    deps: { scrubber: secretsScrubber },
  });
  const call = async (name: string, a: unknown) => {
    const r = await t.callAs(alice, name, a);
    return { ...r, json: JSON.parse(r.content[0]!.text) };
  };
  return { sent: t.sent, call };
}

describe('boundedRange', () => {
  it('asks for the budget when there is no Range, and narrows a byte_range larger than it', () => {
    expect(boundedRange(undefined, MAX_TEXT)).toMatchObject({ header: 'bytes=0-399999', upFront: true });
    expect(boundedRange('bytes=1000-', MAX_TEXT)).toMatchObject({
      header: 'bytes=1000-400999',
      upFront: false,
      askedEnd: null,
    });
    expect(boundedRange('bytes=0-999999', MAX_TEXT)).toMatchObject({
      header: 'bytes=0-399999',
      askedEnd: 1_000_000,
    });
    // A window within the budget (a cursor's, a small byte_range) and other forms go as they are.
    expect(boundedRange('bytes=0-399999', MAX_TEXT)).toBeNull();
    expect(boundedRange('bytes=-500', MAX_TEXT)).toBeNull();
  });
});

describe('repoGetRawFile through a bounded read', () => {
  it('206: only the budget is asked for, and body_cut says how much there is and how to read on', async () => {
    const t = setup(giteaRaw(file));
    const r = await t.call('repoGetRawFile', args);
    expect(t.sent).toHaveLength(1);
    expect(t.sent[0]!.headers.range).toBe(`bytes=0-${MAX_TEXT - 1}`);
    expect(r.isError).toBe(false);
    // Shown as the whole-file answer it stands for, cut where the budget ends.
    expect(r.json.status).toBe(200);
    expect(r.json.body_cut).toMatchObject({ received_bytes: MAX_TEXT, total_bytes: file.length });
    expect(r.json.body_cut.hint).toContain(`byte_range: "${MAX_TEXT}-${2 * MAX_TEXT - 1}"`);
    expect(r.json.range).toMatchObject({ start: 0, total: file.length });
    expect(r.json.range.next_cursor).toEqual(expect.any(String));
    expect(String(r.json.data).startsWith(LINE)).toBe(true);
    // The cursor reads on from where the page ended, one window at a time.
    const next = await t.call('repoGetRawFile', { cursor: r.json.range.next_cursor });
    expect(t.sent[1]!.headers.range).toBe(`bytes=${r.json.range.end}-${r.json.range.end + MAX_TEXT - 1}`);
    const got = Buffer.from(String(next.json.data));
    expect(got.equals(file.subarray(next.json.range.start, next.json.range.end))).toBe(true);
  });

  it('a file smaller than the budget comes back whole, as a plain 200 without body_cut', async () => {
    const small = file.subarray(0, 5000);
    const t = setup(giteaRaw(small));
    const r = await t.call('repoGetRawFile', args);
    expect(t.sent[0]!.headers.range).toBe(`bytes=0-${MAX_TEXT - 1}`);
    expect(r.json.status).toBe(200);
    expect(r.json.body_cut).toBeUndefined();
    expect(r.json.data).toBe(small.toString('utf8'));
  });

  it('200 (the server ignored the Range, as Gitea does for diffs): the body cut by the transport, same envelope', async () => {
    const ignoring = (req: GiteaRequest): Answer => giteaRaw(file)({ ...req, headers: {} });
    const t = setup(ignoring);
    const r = await t.call('repoDownloadCommitDiffOrPatch', {
      owner: 'acme',
      repo: 'webapp',
      sha: 'abc123',
      diffType: 'diff',
    });
    expect(t.sent[0]!.headers.range).toBe(`bytes=0-${MAX_TEXT - 1}`);
    expect(r.json.status).toBe(200);
    expect(r.json.body_cut).toMatchObject({ received_bytes: MAX_TEXT, total_bytes: file.length });
    expect(r.json.body_cut.hint).toContain(`byte_range: "${MAX_TEXT}-${2 * MAX_TEXT - 1}"`);
  });

  it('416 on the range it added (an empty file behind http.ServeContent): asked again without it', async () => {
    const serveContent = (req: GiteaRequest): Answer =>
      req.headers.range
        ? {
            status: 416,
            headers: { 'content-type': 'text/plain', 'content-range': 'bytes */0' },
            body: Buffer.from('invalid range: failed to overlap\n'),
          }
        : { status: 200, headers: { 'content-type': 'text/plain' }, body: new Uint8Array() };
    const t = setup(serveContent);
    const r = await t.call('repoGetRawFile', args);
    expect(t.sent.map((q) => q.headers.range)).toEqual([`bytes=0-${MAX_TEXT - 1}`, undefined]);
    expect(r.isError).toBe(false);
    expect(r.json.status).toBe(200);
    expect(r.json.body_cut).toBeUndefined();
  });

  it("416 on the caller's own byte_range stays the caller's error", async () => {
    const t = setup(giteaRaw(file));
    const r = await t.call('repoGetRawFile', { ...args, byte_range: `${file.length + 10}-` });
    expect(t.sent).toHaveLength(1);
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toContain('416');
  });

  it('a byte_range larger than the budget is narrowed to it, and body_cut counts the rest of the range', async () => {
    const t = setup(giteaRaw(file));
    const r = await t.call('repoGetRawFile', { ...args, byte_range: '100000-899999' });
    expect(t.sent[0]!.headers.range).toBe(`bytes=100000-${100_000 + MAX_TEXT - 1}`);
    expect(r.json.status).toBe(206);
    expect(r.json.body_cut).toMatchObject({ received_bytes: MAX_TEXT, total_bytes: 800_000 });
    expect(r.json.body_cut.hint).toContain(`byte_range: "${100_000 + MAX_TEXT}-`);
    expect(r.json.range).toMatchObject({ start: 100_000, total: file.length });
  });

  it('a binary file larger than the budget is read on to its end: the same bytes as one whole read', async () => {
    const png = Buffer.alloc(1_000_000);
    for (let i = 0; i < png.length; i++) png[i] = (i * 7919) & 0xff;
    const t = setup(giteaRaw(png, 'image/png'));
    const r = await t.call('repoGetRawFile', { ...args, filepath: 'logo.png' });
    expect(t.sent.map((q) => q.headers.range)).toEqual([
      `bytes=0-${MAX_TEXT - 1}`,
      `bytes=${MAX_TEXT}-999999`,
    ]);
    expect(r.json.status).toBe(200);
    expect(r.json.body_cut).toBeUndefined();
    const whole = await setup((req) => giteaRaw(png, 'image/png')({ ...req, headers: {} })).call(
      'repoGetRawFile',
      {
        ...args,
        filepath: 'logo.png',
      },
    );
    expect(r.json.data).toEqual(whole.json.data);
  });

  it('a binary file over MAX_BINARY_BYTES is refused from its Content-Range, without reading the rest', async () => {
    const big = Buffer.alloc(2_000_000, 1);
    const t = setup(giteaRaw(big, 'application/octet-stream'), 1_000_000);
    const r = await t.call('repoGetRawFile', { ...args, filepath: 'blob.bin' });
    expect(t.sent).toHaveLength(1);
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toContain('MAX_BINARY_BYTES');
  });

  it('an operation whose body is not file content is sent without a Range', async () => {
    const t = setup(() => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{}'),
    }));
    await t.call('repoGet', { owner: 'acme', repo: 'webapp' });
    expect(t.sent[0]!.headers.range).toBeUndefined();
  });
});
