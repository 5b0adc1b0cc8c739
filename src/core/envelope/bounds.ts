// Size bounds, applied last: first MAX_TOOL_RESPONSE_ITEMS on arrays, then MAX_TOOL_RESPONSE_CHARS
// on the serialized result. The result stays valid JSON and says what was cut and how to page.
import { listIn, type Envelope } from './envelope';

export type BoundsLimits = {
  maxItems: number;
  maxChars: number;
  /** The property that holds the list when the data wraps it (catalogue `listField`). */
  listField?: string | null;
  /**
   * The list's continuation cursor (result shaping): `pagination.next_cursor` holds `placeholder`,
   * which is at least as long as any cursor of the call. When no item is cut and the text with the
   * placeholder would fit, `value` (the cursor for "every item kept") is put in its place and the
   * result says `cursorPlaced`; otherwise the placeholder stays for the caller to replace.
   */
  cursor?: { placeholder: string; value: string } | null;
};

export type Truncation = {
  items?: { path: string; returned: number; total: number }[];
  chars?: {
    limit: number;
    original_chars: number;
    returned_items?: number;
    total_items?: number;
    data_as_text_prefix?: boolean;
  };
  hint: string;
};

// The raw key: the JSON pointer segment is spelled out (and escaped) only for an array that is cut.
type PathNode = { parent: PathNode; key: string | number } | null;

function pathOf(node: PathNode): string {
  const parts: string[] = [];
  for (let n = node; n; n = n.parent)
    parts.push(
      typeof n.key === 'number' ? `/${n.key}` : `/${n.key.replace(/~/g, '~0').replace(/\//g, '~1')}`,
    );
  return parts.reverse().join('');
}

/**
 * trimItems' stacks, kept between calls (the walk is synchronous and empties them): the holder and
 * key of each container still to visit, and the index of its path in a path arena (parent index,
 * key) that a JSON pointer is read from only for an array that is cut. Parallel arrays instead of
 * two objects per container (a stack entry and a path node): the walk visits every object and
 * array of a result, as cleanJson does (hygiene.ts).
 */
const TRIM = {
  holders: [] as Array<Record<string | number, unknown> | unknown[]>,
  keys: [] as Array<string | number>,
  paths: [] as number[],
  pathParent: [] as number[],
  pathKey: [] as Array<string | number>,
};

/** The JSON pointer of entry `at` of the path arena ('' for the root, -1). */
function arenaPath(at: number): string {
  const parts: string[] = [];
  for (let n = at; n >= 0; n = TRIM.pathParent[n]!) {
    const key = TRIM.pathKey[n]!;
    parts.push(typeof key === 'number' ? `/${key}` : `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
  }
  return parts.reverse().join('');
}

/** Puts `holder[key]` on trimItems' stack, its path entry `key` under `parent` in the arena. */
function pushChild(holder: Record<string, unknown> | unknown[], key: string | number, parent: number): void {
  TRIM.pathParent.push(parent);
  TRIM.pathKey.push(key);
  TRIM.holders.push(holder);
  TRIM.keys.push(key);
  TRIM.paths.push(TRIM.pathKey.length - 1);
}

/** Trims arrays (top-level data and arrays nested inside it) to maxItems. */
function trimItems(data: unknown, maxItems: number, found: Truncation['items'] & object): unknown {
  if (maxItems <= 0) return data;
  // Iterative walk: the value is at most 100 levels deep (deeper JSON stays text), but no recursion is
  // needed. Only objects and arrays are visited, and a JSON pointer is spelled out only for an array
  // that is cut (building one per value cost more than the rest of the result path).
  const root: Record<string, unknown> = { value: data };
  const { holders, keys, paths, pathParent, pathKey } = TRIM;
  holders.length = keys.length = paths.length = pathParent.length = pathKey.length = 0;
  holders.push(root);
  keys.push('value');
  paths.push(-1);
  try {
    while (holders.length) {
      const holder = holders.pop() as Record<string | number, unknown>;
      const key = keys.pop()!;
      const path = paths.pop()!;
      const value = holder[key];
      if (Array.isArray(value)) {
        let arr = value;
        if (arr.length > maxItems) {
          found.push({ path: arenaPath(path) || '/', returned: maxItems, total: arr.length });
          arr = arr.slice(0, maxItems);
          holder[key] = arr;
        }
        for (let i = 0; i < arr.length; i++) {
          const item: unknown = arr[i];
          if (item !== null && typeof item === 'object') pushChild(arr, i, path);
        }
      } else if (value && typeof value === 'object') {
        const obj = value as Record<string, unknown>;
        for (const k in obj) {
          if (!Object.prototype.hasOwnProperty.call(obj, k)) continue;
          const item = obj[k];
          if (item !== null && typeof item === 'object') pushChild(obj, k, path);
        }
      }
    }
  } finally {
    // Nothing of this result stays referenced, even when a step threw.
    holders.length = keys.length = paths.length = pathParent.length = pathKey.length = 0;
  }
  return root.value;
}

function pagingHint(envelope: Envelope, kept: number | null): string {
  const p = envelope.pagination;
  if (p && kept !== null && kept > 0) {
    const offset = ((p.page ?? 1) - 1) * (p.limit ?? kept);
    return `Results were cut to fit the response limits. Request smaller pages (limit=${kept}); the first item not shown is number ${offset + kept + 1} of the list (page=${Math.floor((offset + kept) / kept) + 1} with limit=${kept} when it divides evenly), or narrow the query with filters.`;
  }
  if (p)
    return 'Results were cut to fit the response limits. Request smaller pages with the page and limit parameters, or narrow the query with filters.';
  return 'The result was cut to fit the response limits. Ask for a narrower result (a filter, a smaller page with limit, or a specific item).';
}

export function applyBounds(
  envelope: Envelope,
  limits: BoundsLimits,
): {
  text: string;
  truncated: boolean;
  /** Items of the result's list (top level or wrapped) still held (null when the data is no list). */
  keptItems: number | null;
  /** `limits.cursor.value` is in the text (nothing was cut). */
  cursorPlaced?: boolean;
} {
  const items: NonNullable<Truncation['items']> = [];
  const data = trimItems(envelope.data, limits.maxItems, items);
  let result: Envelope = { ...envelope, data };
  const field = Array.isArray(data) ? null : (limits.listField ?? null);
  const listPath = field === null ? '/' : pathOf({ parent: null, key: field });
  const keptOf = (value: unknown) => listIn(value, field)?.length ?? null;
  if (items.length) {
    const top = items.find((i) => i.path === listPath);
    result = {
      ...result,
      truncated: { items, hint: pagingHint(result, top ? top.returned : null) } satisfies Truncation,
    };
  }
  const cursor = limits.cursor;
  const pagination = result.pagination as (Envelope['pagination'] & { next_cursor?: unknown }) | undefined;
  if (!items.length && cursor && pagination?.next_cursor === cursor.placeholder) {
    // The same decision as with the placeholder in the text, without a second pass to replace it.
    const placed = JSON.stringify({ ...result, pagination: { ...pagination, next_cursor: cursor.value } });
    if (placed.length + (cursor.placeholder.length - cursor.value.length) <= limits.maxChars)
      return { text: placed, truncated: false, keptItems: keptOf(result.data), cursorPlaced: true };
  }
  let text = JSON.stringify(result);
  if (text.length <= limits.maxChars)
    return {
      text,
      truncated: items.length > 0,
      keptItems: keptOf(result.data),
    };

  const originalChars = text.length;
  const note = (extra: Partial<NonNullable<Truncation['chars']>>, kept: number | null): Truncation => ({
    ...(items.length ? { items } : {}),
    chars: { limit: limits.maxChars, original_chars: originalChars, ...extra },
    hint: pagingHint(result, kept),
  });
  const list = listIn(result.data, field);
  if (list) {
    // Keep as many whole items as fit (binary search on the count), where the list sits.
    const all = list;
    let lo = 0;
    let hi = all.length;
    const dataWith = (n: number) =>
      field === null ? all.slice(0, n) : { ...(result.data as object), [field]: all.slice(0, n) };
    const render = (n: number) =>
      JSON.stringify({
        ...result,
        data: dataWith(n),
        truncated: note({ returned_items: n, total_items: all.length }, n),
      });
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (render(mid).length <= limits.maxChars) lo = mid;
      else hi = mid - 1;
    }
    if (lo > 0) return { text: render(lo), truncated: true, keptItems: lo };
  }
  // Otherwise: the data's JSON text, cut to what fits, as a string (the result stays valid JSON).
  const dataText = typeof result.data === 'string' ? result.data : (JSON.stringify(result.data) ?? '');
  const shell = {
    ...result,
    data: '',
    data_format: 'truncated_text',
    truncated: note({ data_as_text_prefix: true }, null),
  };
  const budget = Math.max(0, limits.maxChars - JSON.stringify(shell).length - 16);
  let lo = 0;
  let hi = Math.min(dataText.length, budget);
  const renderText = (n: number) => JSON.stringify({ ...shell, data: dataText.slice(0, n) });
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (renderText(mid).length <= limits.maxChars) lo = mid;
    else hi = mid - 1;
  }
  text = renderText(lo);
  return { text, truncated: true, keptItems: list ? 0 : null };
}
