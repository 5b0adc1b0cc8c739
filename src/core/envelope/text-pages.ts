// Large text (files, diffs, patches, logs) in pages by byte range, cut at a line end when one is
// near, so a 2 MB diff is read in pieces that each fit the response limit instead of one cut prefix.
//
// One range mechanism (ADR 0017): `range.start`/`range.end` are byte offsets in the whole file or
// diff, the same coordinates as the `byte_range` argument ("start-end", end included) and as the
// HTTP Range header it becomes. A body read only in part (`body_cut`, MAX_TEXT_BODY_BYTES) is not a
// dead end: on the operations that take `byte_range`, `range.next_cursor` reads on past what was
// downloaded by sending `Range: bytes=<offset>-` for the next window.

export type TextRange = {
  unit: 'bytes';
  /** First byte of this page in the whole text (0-based). */
  start: number;
  /** One past the last byte of this page (this page is byte_range `start-(end-1)`). */
  end: number;
  /** Size of the whole text in bytes, or null when Gitea did not say (a cut body without a length). */
  total: number | null;
  /** Set when more text follows: call the same tool with only {"cursor": next_cursor}. */
  next_cursor?: string;
  hint?: string;
};

/**
 * The page of `text` that starts at byte `offset` and whose JSON string fits in `maxJsonChars`.
 * `end` is exclusive; the page ends on a whole UTF-8 character and, when one is in its last half,
 * right after a newline.
 */
const PEM_BEGIN = Buffer.from('-----BEGIN ');
const PEM_END = Buffer.from('-----END ');

export function textPage(
  text: string,
  offset: number,
  maxJsonChars: number,
  /** The text goes on after `text` (a window): its end is cut like any page end. */
  more = false,
): { text: string; start: number; end: number; total: number } {
  const buf = Buffer.from(text, 'utf8');
  const total = buf.length;
  const start = Math.min(Math.max(0, Math.floor(offset)), total);
  let budget = Math.max(256, maxJsonChars);
  for (;;) {
    let end = Math.min(total, start + budget);
    while (end < total && end > start && (buf[end]! & 0xc0) === 0x80) end--;
    if (end < total || more) {
      const newline = buf.lastIndexOf(0x0a, end - 1);
      if (newline >= start + (end - start) / 2 && !(end === total && buf[end - 1] === 0x0a))
        end = newline + 1;
      // Each page is scanned for secrets on its own: a PEM block is not split across two pages.
      const begin = buf.lastIndexOf(PEM_BEGIN, end - 1);
      if (begin > start) {
        const close = buf.indexOf(PEM_END, begin);
        const closeLine = close === -1 ? -1 : buf.indexOf(0x0a, close);
        const whole = close !== -1 && closeLine !== -1 && closeLine + 1 <= end;
        if (!whole) {
          const line = buf.lastIndexOf(0x0a, begin);
          end = line >= start ? line + 1 : begin;
        }
      }
    }
    const page = buf.subarray(start, end).toString('utf8');
    // Escaping (quotes, control characters) can make the JSON longer than the bytes: shrink and retry.
    const json = JSON.stringify(page).length;
    if (json <= maxJsonChars || budget <= 256) return { text: page, start, end, total };
    budget = Math.max(256, Math.floor((budget * maxJsonChars * 0.98) / json));
  }
}

/** Which part of the whole text a response body holds, from the request's Range and Gitea's answer. */
export type TextWindow = {
  /** Byte offset of the body's first byte in the whole text. */
  start: number;
  total: number | null;
  /** More of the text follows after the body, within what the call asked for. */
  more: boolean;
  /** The body is not the whole text (a Range answer or a cut body). */
  part: boolean;
  /** The operation takes `byte_range`, so a cursor can read past the body with a Range request. */
  rangeable: boolean;
};

/** Parses "start-end" or "start-" (end included) as [start, endExclusive | null]. */
export function parseByteRange(value: unknown): [number, number | null] | null {
  const m = typeof value === 'string' ? /^(\d{1,15})-(\d{0,15})$/.exec(value) : null;
  if (!m) return null;
  return [Number(m[1]), m[2] ? Number(m[2]) + 1 : null];
}

/**
 * The Range header a text cursor sends to read on from `offset`: one window of `windowBytes`,
 * never past the end of the byte_range the first call asked for.
 */
export function continuationRange(offset: number, byteRange: unknown, windowBytes: number): string {
  const until = parseByteRange(byteRange)?.[1] ?? null;
  const last = offset + Math.max(1, windowBytes) - 1;
  return `bytes=${offset}-${until !== null ? Math.min(until - 1, last) : last}`;
}

export function textWindow(
  response: {
    status: number;
    headers: Record<string, string>;
    body: Uint8Array;
    cut?: { receivedBytes: number; totalBytes: number | null };
  },
  byteRange: unknown,
  rangeable: boolean,
): TextWindow {
  const received = response.cut?.receivedBytes ?? response.body.length;
  const content = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(response.headers['content-range'] ?? '');
  let start = 0;
  let total: number | null;
  if (response.status === 206 && content) {
    start = Number(content[1]);
    total = content[3] === '*' ? null : Number(content[3]);
  } else total = response.cut ? response.cut.totalBytes : received;
  const until = Math.min(total ?? Infinity, parseByteRange(byteRange)?.[1] ?? Infinity);
  const more = start + received < until && (total !== null || response.cut !== undefined);
  const part = start > 0 || more || (total !== null && start + received < total);
  return { start, total, more, part, rangeable };
}

/**
 * A window of a longer UTF-8 text starts and ends on whole characters: continuation bytes at its
 * start are skipped (`skipped` says how many, so the window's offset moves on by as many), and a
 * character cut at its end is left for the next window.
 */
export function alignUtf8Window(body: Uint8Array, trimEnd: boolean): { body: Uint8Array; skipped: number } {
  let start = 0;
  while (start < Math.min(3, body.length) && (body[start]! & 0xc0) === 0x80) start++;
  let end = body.length;
  if (trimEnd) {
    let back = 0;
    while (end > start && back < 3 && (body[end - 1]! & 0xc0) === 0x80) {
      end--;
      back++;
    }
    if (end > start && body[end - 1]! >= 0xc0) {
      const lead = body[end - 1]!;
      const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
      if (back + 1 < need) end--;
      else end += back;
    } else end += back;
  }
  return start === 0 && end === body.length
    ? { body, skipped: 0 }
    : { body: body.subarray(start, end), skipped: start };
}
