// Measures the nesting depth of JSON text in one linear pass, without recursion, so that a
// hostile document cannot exhaust the stack before we decide how to treat it. String contents
// (most of a Gitea response) are skipped with indexOf to the closing quote rather than visited
// one character at a time; each backslash run is counted once, so the pass stays linear.
export function jsonDepthExceeds(text: string, maxDepth: number): boolean {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let j = i;
      for (;;) {
        j = text.indexOf('"', j + 1);
        if (j < 0) return false; // unterminated string: nothing deeper follows
        let backslashes = 0;
        for (let k = j - 1; text.charCodeAt(k) === 0x5c; k--) backslashes++;
        if ((backslashes & 1) === 0) break; // an unescaped quote closes the string
      }
      i = j;
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > maxDepth) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

export const MAX_JSON_DEPTH = 100;
