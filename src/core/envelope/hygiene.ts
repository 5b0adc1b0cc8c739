// Untrusted-text hygiene (issue 17). Gitea-authored text can hide instructions from the person
// reading it while the model still reads them: zero-width and other invisible characters, bidi
// controls that reorder what is shown (Trojan Source), Unicode tag characters (invisible ASCII), and
// HTML comments that Markdown renders as nothing. In authored text (issue and PR bodies, comments,
// commit messages, release notes, wiki pages, titles, descriptions) they are made visible; in file
// contents and diffs they are only counted, so files stay byte-exact unless the admin opts in.

export type HygieneCounts = {
  invisible: number;
  bidi: number;
  tag_characters: number;
  html_comments: number;
};

export type HygieneMode = 'flag' | 'neutralise';

// Bidi controls: embeddings, overrides, isolates, the Arabic letter mark, the implicit marks.
const BIDI = /[\u202A-\u202E\u2066-\u2069\u061C\u200E\u200F]/g;
// Zero-width space/joiners, word joiner, invisible operators, BOM, soft hyphen, Mongolian vowel separator.
const INVISIBLE = /[\u200B-\u200D\u2060-\u2064\uFEFF\u00AD\u180E]/g;
// Tag characters U+E0000..U+E007F (surrogate pairs \uDB40\uDC00-\uDB40\uDC7F).
const TAGS = /\uDB40[\uDC00-\uDC7F]/g;
const HTML_COMMENT = /<!--([\s\S]*?)(-->|$)/g;
const ANY =
  /[\u202A-\u202E\u2066-\u2069\u061C\u200E\u200F\u200B-\u200D\u2060-\u2064\uFEFF\u00AD\u180E]|\uDB40[\uDC00-\uDC7F]|<!--/;

/** Keys whose string values are text people write in Gitea (Markdown, commit messages, titles). */
export const AUTHORED_KEYS = new Set([
  'body',
  'title',
  'message',
  'description',
  'note',
  'content',
  'summary',
  'subject',
  'label',
  'comment',
  'text',
  'diff_hunk',
  'website',
  'location',
]);

export function emptyCounts(): HygieneCounts {
  return { invisible: 0, bidi: 0, tag_characters: 0, html_comments: 0 };
}

const codepoint = (ch: string) => `[U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`;

/** Counts (and, in neutralise mode, makes visible) the hidden parts of one string. */
export function cleanText(text: string, counts: HygieneCounts, mode: HygieneMode): string {
  if (!ANY.test(text)) return text;
  const count = (re: RegExp, key: keyof HygieneCounts) => {
    const n = text.match(re)?.length ?? 0;
    counts[key] += n;
    return n;
  };
  count(BIDI, 'bidi');
  count(INVISIBLE, 'invisible');
  count(TAGS, 'tag_characters');
  count(HTML_COMMENT, 'html_comments');
  if (mode === 'flag') return text;
  return text
    .replace(HTML_COMMENT, (_m, inner: string) => `[hidden HTML comment: ${inner.trim()}]`)
    .replace(TAGS, (ch) => {
      // A tag character mirrors ASCII: show what it spells.
      const ascii = ch.codePointAt(0)! - 0xe0000;
      return ascii >= 0x20 && ascii < 0x7f ? `[tag:${String.fromCharCode(ascii)}]` : codepoint(ch);
    })
    .replace(BIDI, codepoint)
    .replace(INVISIBLE, codepoint);
}

/**
 * Walks decoded JSON data: authored keys are neutralised, every other string is counted only (a
 * login or a sha with hidden characters is worth a flag but must stay usable as an argument).
 * Base64 text is read too, or hidden characters would pass encoded: a wiki page's
 * `content_base64` is authored text (neutralised, then encoded again); a file's `content` with
 * `encoding: "base64"` (contents and blob responses) is file contents, counted and changed only in
 * `files` mode `neutralise`.
 */
/** cleanJson's stacks; empty between calls. */
const WALK = {
  holders: [] as Array<Record<string | number, unknown>>,
  keys: [] as Array<string | number>,
  authoredFlags: [] as boolean[],
};

export function cleanJson(data: unknown, counts: HygieneCounts, files: HygieneMode = 'flag'): unknown {
  // Three parallel stacks (holder, key, authored), kept between calls (the walk is synchronous and
  // empties them), instead of an object per value: the walk visits every value of a result, and
  // those objects were a twentieth of a small call's allocations.
  const root: Record<string, unknown> = { value: data };
  const { holders, keys, authoredFlags } = WALK;
  holders.length = keys.length = authoredFlags.length = 0;
  holders.push(root);
  keys.push('value');
  authoredFlags.push(false);
  try {
    walk(holders, keys, authoredFlags, counts, files);
  } finally {
    // Nothing of this result stays referenced, even when a step threw.
    holders.length = keys.length = authoredFlags.length = 0;
  }
  return root.value;
}

function walk(
  holders: Array<Record<string | number, unknown>>,
  keys: Array<string | number>,
  authoredFlags: boolean[],
  counts: HygieneCounts,
  files: HygieneMode,
): void {
  while (holders.length) {
    const holder = holders.pop()!;
    const key = keys.pop()!;
    const authored = authoredFlags.pop()!;
    const value = holder[key];
    if (typeof value === 'string') {
      const cleaned =
        key === 'content_base64'
          ? cleanBase64(value, counts, 'neutralise')
          : key === 'content' && holder.encoding === 'base64'
            ? cleanBase64(value, counts, files)
            : cleanText(value, counts, authored ? 'neutralise' : 'flag');
      if (cleaned !== value) holder[key] = cleaned;
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        holders.push(value as unknown as Record<number, unknown>);
        keys.push(i);
        authoredFlags.push(authored);
      }
    } else if (value && typeof value === 'object') {
      const obj = value as Record<string, unknown>;
      for (const k in obj) {
        if (!Object.prototype.hasOwnProperty.call(obj, k)) continue;
        holders.push(obj);
        keys.push(k);
        authoredFlags.push(AUTHORED_KEYS.has(k));
      }
    }
  }
}

/** Base64 that holds UTF-8 text: its text is cleaned; anything else (an image, bad base64) stays as it is. */
export function cleanBase64(value: string, counts: HygieneCounts, mode: HygieneMode): string {
  const compact = value.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0) return value;
  const bytes = Buffer.from(compact, 'base64');
  const text = bytes.toString('utf8');
  // Not UTF-8 (the decode would not give the same bytes back): binary, not text to read.
  if (!Buffer.from(text, 'utf8').equals(bytes)) return value;
  const cleaned = cleanText(text, counts, mode);
  return cleaned === text ? value : Buffer.from(cleaned, 'utf8').toString('base64');
}

export function totalOf(counts: HygieneCounts): number {
  return counts.invisible + counts.bidi + counts.tag_characters + counts.html_comments;
}
