// Fallback ResultScrubber used until the secrets module is wired: exact redaction only (strings
// and object keys), no pattern masking, no write-back detection.
import { REDACTED } from '../secrets/redaction-marker';
import { CREDENTIAL_ISSUING_OPERATIONS } from '../secrets/secret-operations.util';
import type { ResultScrubber } from './tool-service';

export { REDACTED };

export function redactExact(value: unknown, secrets: string[]): { value: unknown; redactions: number } {
  const list = [...new Set(secrets.filter((s) => typeof s === 'string' && s.length > 0))].sort(
    (a, b) => b.length - a.length,
  );
  let redactions = 0;
  const redactString = (text: string): string => {
    let out = text;
    for (const secret of list) {
      if (out.includes(secret)) {
        const parts = out.split(secret);
        redactions += parts.length - 1;
        out = parts.join(REDACTED);
      }
    }
    return out;
  };
  if (!list.length) return { value, redactions: 0 };
  // Iterative copy: no recursion on untrusted depth.
  const root: { v: unknown } = { v: undefined };
  const stack: Array<{ src: unknown; set: (v: unknown) => void }> = [
    { src: value, set: (v) => (root.v = v) },
  ];
  while (stack.length) {
    const { src, set } = stack.pop()!;
    if (typeof src === 'string') set(redactString(src));
    else if (Array.isArray(src)) {
      const out: unknown[] = new Array(src.length);
      set(out);
      src.forEach((item, i) => stack.push({ src: item, set: (v) => (out[i] = v) }));
    } else if (src && typeof src === 'object') {
      const out: Record<string, unknown> = {};
      set(out);
      for (const [k, item] of Object.entries(src)) {
        const key = redactString(k);
        out[key] = undefined; // reserve the key so the copy keeps the original key order
        stack.push({ src: item, set: (v) => (out[key] = v) });
      }
    } else set(src);
  }
  return { value: root.v, redactions };
}

export const passThroughScrubber: ResultScrubber = {
  collectBodySecrets: () => [],
  scrubResult: (value, ctx) => {
    const { value: out, redactions } = redactExact(value, ctx.exactSecrets);
    return { value: out, redactions, masks: 0, blocked: null };
  },
  findMaskMarker: () => null,
  CREDENTIAL_ISSUING_OPERATIONS,
};
