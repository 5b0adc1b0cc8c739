// The last part of a successful call, from Gitea's body to the result text: text window, decoding,
// envelope, result shaping, both secret layers, bounds, serialisation. A pure function of its input
// (no executor state), so that the executor runs it on the event loop for ordinary bodies and a
// scrubber may run it whole in a worker thread for large ones (ADR 0018): the same code either way.
import type { CallIdentity, GiteaRequest, GiteaResponse } from '../ports';
import type { CatalogueOperation } from '../catalogue/tool-catalogue';
import { BinaryTooLargeError, buildEnvelope, decodeBody, type Envelope } from '../envelope/envelope';
import { applyBounds } from '../envelope/bounds';
import { CursorCodec } from '../envelope/cursor';
import type { ResultOptions } from '../envelope/result-options';
import { shapeResult } from '../envelope/result-shaping';
import { alignUtf8Window, textWindow } from '../envelope/text-pages';
import { toolErrorText } from '../call/tool-call-outcome';

/** The parts of the catalogue operation this step reads (a plain object: it can cross to a thread). */
export type SuccessOperation = Pick<
  CatalogueOperation,
  'operationId' | 'listResult' | 'paging' | 'countField' | 'responseHeaders' | 'listField'
>;

export type ScrubCallContext = {
  exactSecrets: string[];
  mode: 'off' | 'mask' | 'block';
  skipPatterns: boolean;
};

export type SuccessInput = {
  op: SuccessOperation;
  /** The operation takes `byte_range` (BYTE_RANGE_OPERATIONS). */
  byteRangeOp: boolean;
  /** The argument name of a byte range (BYTE_RANGE_ARG). */
  byteRangeArg: string;
  /** The raw tool's name: its calls are not windowed by `byte_range`. */
  rawToolName: string;
  request: GiteaRequest;
  response: GiteaResponse;
  identity: CallIdentity;
  call: { name: string; args: unknown; options: ResultOptions; offset: number | null };
  scrub: ScrubCallContext;
  limits: {
    maxBinaryBytes: number;
    maxResponseItems: number;
    maxResponseChars: number;
    maxTextBytes: number;
    hygieneFiles: 'flag' | 'neutralise';
  };
};

export type ScrubOutcome = {
  value: unknown;
  redactions: number;
  masks: number;
  blocked: null | { kinds: string[]; reason?: string };
};

export type SuccessOutput =
  | {
      text: string;
      isError: boolean;
      kind: 'secret_blocked' | null;
      counts: { redactions: number; masks: number; blocked: boolean };
    }
  /** The body cannot be answered (a binary body over MAX_BINARY_BYTES): the call fails with this. */
  | { failure: { kind: 'payload_too_large'; message: string; status: number } };

export type SuccessDeps = {
  cursors: CursorCodec;
  /** Both secret layers over the shaped envelope (`binary`/`body`/`bytes` as ResultScrubber's options). */
  scrub(
    value: unknown,
    ctx: ScrubCallContext,
    options: { bytes: number; binary: boolean; body?: Uint8Array },
  ): Promise<ScrubOutcome>;
  /** Between the scan and the serialisation of a large result: let other work run (event loop only). */
  pause?(): Promise<void>;
  /** Waits for this call's turn before the CPU-heavy part (CpuTurns; event loop only). */
  turn?(): Promise<void>;
};

export async function finishSuccess(input: SuccessInput, deps: SuccessDeps): Promise<SuccessOutput> {
  const { op, request, identity, call, limits } = input;
  if (deps.turn) await deps.turn();
  let response = input.response;
  const rangeable = input.byteRangeOp && call.name !== input.rawToolName;
  const window = textWindow(
    response,
    rangeable ? (call.args as Record<string, unknown> | null)?.[input.byteRangeArg] : undefined,
    rangeable,
  );
  // A window of a longer UTF-8 text starts and ends on whole characters (the next window starts there).
  if (window.part && /utf-?8|^text\/plain$/i.test(response.headers['content-type'] ?? '')) {
    const toEnd = window.total !== null && window.start + response.body.length >= window.total;
    const aligned = alignUtf8Window(response.body, !toEnd && !response.cut);
    if (aligned.skipped || aligned.body !== response.body) {
      window.start += aligned.skipped;
      response = { ...response, body: aligned.body };
      if (response.cut)
        response.cut = { ...response.cut, receivedBytes: response.cut.receivedBytes - aligned.skipped };
    }
  }
  let decoded;
  try {
    decoded = decodeBody(response, limits.maxBinaryBytes);
  } catch (error) {
    if (error instanceof BinaryTooLargeError)
      return { failure: { kind: 'payload_too_large', message: error.message, status: response.status } };
    throw error;
  }
  const envelope = buildEnvelope({
    identity,
    method: request.method,
    path: request.path,
    response,
    query: request.query,
    isList: op.listResult,
    paging: {
      paged: op.paging !== null,
      limitParam: op.paging?.limit ?? null,
      countField: op.countField,
    },
    declaredHeaders: op.responseHeaders,
    decoded,
  });
  if (response.cut)
    envelope.body_cut = bodyCut(
      op,
      input.byteRangeOp,
      input.byteRangeArg,
      request,
      response.cut,
      limits.maxTextBytes,
    );
  // Field selection, hygiene, text pages and tables before the secret layers and the bounds.
  const shaped = shapeResult(envelope, {
    op,
    decodedFormat: decoded.format,
    call,
    identity,
    cursors: deps.cursors,
    maxChars: limits.maxResponseChars,
    hygieneFiles: limits.hygieneFiles,
    window,
  });
  const scrubbed = await deps.scrub(shaped.envelope, input.scrub, {
    bytes: response.body.length,
    binary: decoded.format === 'binary',
    ...(decoded.format === 'binary' ? { body: response.body } : {}),
  });
  if (scrubbed.blocked) {
    const kinds = scrubbed.blocked.kinds.slice(0, 20);
    return {
      text: toolErrorText(
        'secret_blocked',
        response.status,
        scrubbed.blocked.reason
          ? `the result was withheld: ${scrubbed.blocked.reason} (${kinds.join(', ') || 'unknown kind'}). Fetch the files one by one (repoGetContents) to see them with secrets masked.`
          : `the result was withheld because it contains secrets (${kinds.join(', ') || 'unknown kind'}) and secret detection is in block mode`,
      ),
      isError: true,
      kind: 'secret_blocked',
      counts: { redactions: scrubbed.redactions, masks: scrubbed.masks, blocked: true },
    };
  }
  // A large result was just scanned: let timers and other requests run before it is serialised.
  if (response.body.length > 256 * 1024 && deps.pause) await deps.pause();
  const bounded = applyBounds(scrubbed.value as Envelope, {
    maxItems: limits.maxResponseItems,
    maxChars: limits.maxResponseChars,
    listField: op.listField,
    cursor: shaped.cursor,
  });
  return {
    text: shaped.finish(bounded.text, bounded.keptItems, bounded.cursorPlaced),
    isError: false,
    kind: null,
    counts: { redactions: scrubbed.redactions, masks: scrubbed.masks, blocked: false },
  };
}

/** What was cut from a body read only in part, and how to read the rest. */
function bodyCut(
  op: SuccessOperation,
  byteRangeOp: boolean,
  byteRangeArg: string,
  request: GiteaRequest,
  cut: { receivedBytes: number; totalBytes: number | null },
  limit: number,
): NonNullable<Envelope['body_cut']> {
  const from = /^bytes=(\d+)-/.exec(request.headers.range ?? '');
  const start = (from ? Number(from[1]) : 0) + cut.receivedBytes;
  const of = cut.totalBytes !== null ? ` of ${cut.totalBytes}` : '';
  const next = `${start}-${start + limit - 1}`;
  const hint = byteRangeOp
    ? `Only ${cut.receivedBytes} bytes${of} were read (MAX_TEXT_BODY_BYTES). Read on page by page with {"cursor": range.next_cursor} (it continues past this read with a Range request), or jump with ${op.operationId} and ${byteRangeArg}: "${next}".`
    : `Only ${cut.receivedBytes} bytes${of} were read (MAX_TEXT_BODY_BYTES). Ask for less (a smaller page with limit, a filter), or read a file in slices with repoGetRawFile and ${byteRangeArg}: "${next}".`;
  return { received_bytes: cut.receivedBytes, total_bytes: cut.totalBytes, hint };
}

/** A task that finishes a success off the event loop: the input with what the thread cannot share. */
export type OffLoopSuccessTask = {
  input: SuccessInput;
  /** The key of the service's cursors (CursorCodec.exportKey), so a page's cursor is one it accepts. */
  cursorKey: Uint8Array;
  /** The service's clock when the task was handed over (a cursor's expiry counts from it). */
  now: number;
};

/** finishSuccess for an OffLoopSuccessTask, with the given secret pass (in a worker thread). */
export function finishOffLoopTask(
  task: OffLoopSuccessTask,
  scrub: SuccessDeps['scrub'],
): Promise<SuccessOutput> {
  return finishSuccess(task.input, { cursors: CursorCodec.fromKey(task.cursorKey, () => task.now), scrub });
}
