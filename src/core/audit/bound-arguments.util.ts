// Audit arguments over the size limit are cut value by value: the longest strings are shortened
// first (all to the same length), then the longest arrays, so one padded field cannot hide the
// others. Every key stays, every short value stays as it was. Only a document that is still too
// large after that (a huge number of keys) becomes the old whole-record marker.
import type { JsonValue } from './audit-record.types';

/** A cut string keeps at least this many characters of its start. */
const MIN_STRING_KEEP = 32;
/** A cut array keeps at least this many of its first items. */
const MIN_ARRAY_KEEP = 4;

type StringLeaf = { holder: Record<string | number, JsonValue>; key: string | number; value: string };
type ArrayNode = { holder: Record<string | number, JsonValue>; key: string | number; value: JsonValue[] };

export function cutString(value: string, keep: number): string {
  if (value.length <= keep) return value;
  let end = keep;
  // Never end between the two halves of a surrogate pair.
  const code = value.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${value.slice(0, end)}… [cut: ${value.length} chars]`;
}

function cutArray(value: JsonValue[], keep: number): JsonValue[] {
  if (value.length <= keep) return value;
  return [...value.slice(0, keep), `[cut: ${value.length - keep} more of ${value.length} items]`];
}

/** Copies `args` and collects its strings and arrays with where they sit (iterative walk). */
function collect(args: JsonValue): {
  root: { value: JsonValue };
  strings: StringLeaf[];
  arrays: ArrayNode[];
} {
  const root = { value: args } as { value: JsonValue };
  const strings: StringLeaf[] = [];
  const arrays: ArrayNode[] = [];
  const stack: Array<{ holder: Record<string | number, JsonValue>; key: string | number }> = [
    { holder: root as unknown as Record<string, JsonValue>, key: 'value' },
  ];
  while (stack.length) {
    const { holder, key } = stack.pop()!;
    const value = holder[key]!;
    if (typeof value === 'string') strings.push({ holder, key, value });
    else if (Array.isArray(value)) {
      const copy = [...value];
      holder[key] = copy;
      arrays.push({ holder, key, value: copy });
      for (let i = 0; i < copy.length; i++)
        stack.push({ holder: copy as unknown as Record<number, JsonValue>, key: i });
    } else if (value !== null && typeof value === 'object') {
      const copy = { ...value };
      holder[key] = copy;
      for (const k of Object.keys(copy)) stack.push({ holder: copy, key: k });
    }
  }
  return { root, strings, arrays };
}

/** The largest cap in [min, max] for which `fits(cap)` holds (fits is monotone), or null. */
function largestFitting(min: number, max: number, fits: (cap: number) => boolean): number | null {
  if (!fits(min)) return null;
  let lo = min;
  let hi = max;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export function boundArguments(args: JsonValue, maxChars: number): JsonValue {
  const size = JSON.stringify(args).length;
  if (size <= maxChars) return args;
  const { root, strings, arrays } = collect(args);
  const render = () => JSON.stringify(root.value).length;

  // 1. Strings: one cap for all, the largest that fits.
  const longest = strings.reduce((m, s) => Math.max(m, s.value.length), 0);
  const applyStrings = (cap: number) => {
    for (const s of strings) s.holder[s.key] = cutString(s.value, cap);
  };
  const stringCap = largestFitting(MIN_STRING_KEEP, Math.max(MIN_STRING_KEEP, longest), (cap) => {
    applyStrings(cap);
    return render() <= maxChars;
  });
  applyStrings(stringCap ?? MIN_STRING_KEEP);
  if (stringCap !== null) return root.value;

  // 2. Arrays (strings stay at the smallest cap): one item count for all, the largest that fits.
  const widest = arrays.reduce((m, a) => Math.max(m, a.value.length), 0);
  // Innermost first: an outer array's cut copy must pick up its inner arrays already cut.
  const applyArrays = (cap: number) => {
    for (let i = arrays.length - 1; i >= 0; i--) {
      const a = arrays[i]!;
      a.holder[a.key] = cutArray(a.value, cap);
    }
  };
  const arrayCap = largestFitting(MIN_ARRAY_KEEP, Math.max(MIN_ARRAY_KEEP, widest), (cap) => {
    applyArrays(cap);
    return render() <= maxChars;
  });
  if (arrayCap !== null) {
    applyArrays(arrayCap);
    return root.value;
  }
  return { _truncated: true, _chars: size };
}
