// Issue 12 point 3, bounded work: a call whose body is file content (BYTE_RANGE_OPERATIONS: raw
// files, raw-or-LFS media, commit and pull diffs/patches) asks Gitea for at most MAX_TEXT_BODY_BYTES
// up front with `Range: bytes=<start>-<start + budget - 1>`, so Gitea sends only that much, instead
// of sending the whole file and having the transport stop reading by tearing the connection down.
//
// Gitea serves raw files and LFS objects through httplib.ServeUserContentByReader (routers/common/
// serve.go, modules/httplib/serve.go): one "bytes=a-b" range gives 206 with Content-Range
// "bytes a-b/size" and a Content-Length, an end past the file is clamped, a start at or past the end
// is 416 (without a Content-Range), an empty file is 200. Its diff and patch endpoints write the
// diff straight to the response and ignore Range: 200 with the whole body, which the transport
// still cuts at the budget. What the caller sees does not depend on which of these came back: the
// answer to a range the caller did not ask for is shown as the 200 it stands for (with body_cut when
// the file goes on), a binary file up to MAX_BINARY_BYTES is read on to its end, and a 416 on the
// range we added is asked again without it.
import type { GiteaRequest, GiteaResponse } from '../ports';
import { BinaryTooLargeError, isTextContentType } from '../envelope/envelope';
import { parseByteRange } from '../envelope/text-pages';

export type BoundedRange = {
  /** The Range header sent. */
  header: string;
  /** The request had no Range: this one is ours, not the caller's. */
  upFront: boolean;
  /** First byte asked for. */
  start: number;
  /** One past the last byte the caller asked for (null: to the end of the file). */
  askedEnd: number | null;
  /** The header the caller's request had (byte_range or a cursor's window), when it had one. */
  original: string | null;
};

/**
 * The Range to send for a read of at most `budget` bytes, or null when the request already asks
 * for no more than that (a cursor's window, a small byte_range) or for something else (a suffix
 * range, several ranges: sent as they are).
 */
export function boundedRange(current: string | undefined, budget: number): BoundedRange | null {
  const size = Math.max(1, Math.floor(budget));
  if (current === undefined || current === '')
    return { header: `bytes=0-${size - 1}`, upFront: true, start: 0, askedEnd: null, original: null };
  const asked = parseByteRange(/^bytes=(.*)$/.exec(current)?.[1]);
  if (!asked) return null;
  const [start, askedEnd] = asked;
  if (askedEnd !== null && askedEnd - start <= size) return null;
  return {
    header: `bytes=${start}-${start + size - 1}`,
    upFront: false,
    start,
    askedEnd,
    original: current,
  };
}

export type SettledRead =
  | { request: GiteaRequest; response: GiteaResponse }
  /** A binary file larger than MAX_BINARY_BYTES: refused from its size, without reading it. */
  | { tooLarge: string; status: number };

/** Content-Range "bytes a-b/size" (size known), as [a, b + 1, size]. */
function contentRange(headers: Record<string, string>): [number, number, number] | null {
  const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(headers['content-range'] ?? '');
  return m ? [Number(m[1]), Number(m[2]) + 1, Number(m[3])] : null;
}

function withRange(request: GiteaRequest, range: string | null): GiteaRequest {
  const headers = { ...request.headers };
  if (range === null) delete headers.range;
  else headers.range = range;
  return { ...request, headers };
}

/** The answer to a range we added, shown as the whole-file answer it stands for. */
function asWholeFile(response: GiteaResponse, body: Uint8Array, size: number): GiteaResponse {
  const headers: Record<string, string> = { ...response.headers, 'content-length': String(size) };
  delete headers['content-range'];
  const out: GiteaResponse = { ...response, status: 200, headers, body };
  delete out.cut;
  return out;
}

/**
 * What Gitea's answer to a bounded read means for the call: `request` is the request the body
 * answers (its Range gives the body's offset), `response` the body with `cut` set when the file
 * (or the range asked for) goes on past it.
 */
export async function settleBoundedRead(
  request: GiteaRequest,
  response: GiteaResponse,
  bounded: BoundedRange,
  send: (request: GiteaRequest) => Promise<GiteaResponse>,
  maxBinaryBytes: number,
): Promise<SettledRead> {
  // The unbounded request, as the caller made it: what the old path sent.
  const unbounded = (): GiteaRequest => withRange(request, bounded.original);
  if (response.status === 416 && bounded.upFront) {
    // A file our range does not overlap (an empty file on a server with Go's http.ServeContent).
    const plain = unbounded();
    return { request: plain, response: await send(plain) };
  }
  const range = response.status === 206 ? contentRange(response.headers) : null;
  // 200 (Range ignored: diffs, patches), or an answer without a usable Content-Range: as it came.
  if (!range || range[0] !== bounded.start) return { request, response };
  const [start, end, size] = range;
  const until = Math.min(size, bounded.askedEnd ?? size);
  const got = response.body.length;
  if (start + got >= until)
    return { request, response: bounded.upFront ? asWholeFile(response, response.body, size) : response };
  if (isTextContentType(response.headers['content-type'])) {
    // The file goes on: body_cut says how much there is and how to read on, as for a cut body.
    const cut = { receivedBytes: got, totalBytes: until - start };
    const shown = bounded.upFront ? asWholeFile(response, response.body, size) : response;
    return { request, response: { ...shown, cut } };
  }
  // A binary body is answered whole or not at all (MAX_BINARY_BYTES): read the rest, or refuse.
  if (until - start > maxBinaryBytes)
    return { tooLarge: new BinaryTooLargeError(until - start, maxBinaryBytes).message, status: 200 };
  const restRequest = withRange(request, `bytes=${end}-${until - 1}`);
  const rest = await send(restRequest);
  const restRange = rest.status === 206 ? contentRange(rest.headers) : null;
  if (!restRange || restRange[0] !== end || end + rest.body.length !== until || rest.cut) {
    // Not the answer a range server gives (the file changed, a proxy): read it the old way.
    const plain = unbounded();
    return { request: plain, response: await send(plain) };
  }
  const body = new Uint8Array(until - start);
  body.set(response.body, 0);
  body.set(rest.body, got);
  if (bounded.upFront) return { request, response: asWholeFile(response, body, size) };
  const headers = {
    ...response.headers,
    'content-range': `bytes ${start}-${until - 1}/${size}`,
    'content-length': String(body.length),
  };
  return { request: withRange(request, bounded.original), response: { ...response, headers, body } };
}
