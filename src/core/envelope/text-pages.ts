// Large text (files, diffs, patches, logs) in pages by byte range, cut at a line end when one is
// near, so a 2 MB diff is read in pieces that each fit the response limit instead of one cut prefix.

export type TextRange = {
  unit: 'bytes';
  start: number;
  end: number;
  total: number;
  /** Set when more text follows: call the same tool with only {"cursor": next_cursor}. */
  next_cursor?: string;
  hint?: string;
};

/**
 * The page of `text` that starts at byte `offset` and whose JSON string fits in `maxJsonChars`.
 * `end` is exclusive; the page ends on a whole UTF-8 character and, when one is in its last half,
 * right after a newline.
 */
export function textPage(
  text: string,
  offset: number,
  maxJsonChars: number,
): { text: string; start: number; end: number; total: number } {
  const buf = Buffer.from(text, 'utf8');
  const total = buf.length;
  const start = Math.min(Math.max(0, Math.floor(offset)), total);
  let budget = Math.max(256, maxJsonChars);
  for (;;) {
    let end = Math.min(total, start + budget);
    while (end < total && end > start && (buf[end]! & 0xc0) === 0x80) end--;
    if (end < total) {
      const newline = buf.lastIndexOf(0x0a, end - 1);
      if (newline >= start + (end - start) / 2) end = newline + 1;
    }
    const page = buf.subarray(start, end).toString('utf8');
    // Escaping (quotes, control characters) can make the JSON longer than the bytes: shrink and retry.
    const json = JSON.stringify(page).length;
    if (json <= maxJsonChars || budget <= 256) return { text: page, start, end, total };
    budget = Math.max(256, Math.floor((budget * maxJsonChars * 0.98) / json));
  }
}
