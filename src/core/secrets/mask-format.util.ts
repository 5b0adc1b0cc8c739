// The service's own mask marker. Distinctive on purpose: the write-back guard refuses any write that
// contains one, so real content must practically never contain it, and finding it must be exact and
// cheap (one indexOf for the opener, then a bounded sticky regex to confirm the full grammar).
//
//   [[aegis-masked:<kind>:<prefix>...:<length>]]
//
// kind: lower-case rule name; prefix: the rule's public, non-random prefix (e.g. ghp_, AKIA), at
// most 8 characters from [A-Za-z0-9_-], empty when the secret has none; length: the original length.

export const MASK_OPENER = '[[aegis-masked:';
const MARKER_RE = /\[\[aegis-masked:[a-z0-9-]{1,40}:[A-Za-z0-9_-]{0,8}\.\.\.:[0-9]{1,9}\]\]/y;

export function formatMask(kind: string, secret: string, revealPrefix: number): string {
  let prefix = '';
  const max = Math.min(revealPrefix, 8, Math.floor(secret.length / 3));
  for (let i = 0; i < max; i++) {
    const c = secret.charCodeAt(i);
    const ok = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;
    if (!ok) break;
    prefix += secret[i];
  }
  return `${MASK_OPENER}${kind}:${prefix}...:${secret.length}]]`;
}

/** Index of the first complete mask marker in text, or -1. */
export function indexOfMaskMarker(text: string): number {
  let from = 0;
  for (;;) {
    const i = text.indexOf(MASK_OPENER, from);
    if (i < 0) return -1;
    MARKER_RE.lastIndex = i;
    if (MARKER_RE.test(text)) return i;
    from = i + 1;
  }
}
