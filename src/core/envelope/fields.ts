// Field selection (issue 17): `fields: ["number", "title", "user.login", "labels.*.name"]` keeps only
// those paths of the data, before the size bounds, so a list of PRs costs its titles and not its
// diffs' worth of metadata. A list result applies the paths to each item; `*` steps into every item
// of a nested list.

export const MAX_FIELDS = 50;
export const FIELD_PATH = /^(\*|[A-Za-z0-9_@$-]{1,100})(\.(\*|[A-Za-z0-9_@$-]{1,100})){0,9}$/;

type Tree = { [key: string]: Tree | true };

/** Why a `fields` argument is not usable, or null. */
export function fieldsProblem(fields: unknown): string | null {
  if (!Array.isArray(fields)) return 'fields must be an array of dotted paths, e.g. ["number", "user.login"]';
  if (fields.length === 0) return 'fields must name at least one path';
  if (fields.length > MAX_FIELDS) return `fields may name at most ${MAX_FIELDS} paths`;
  for (const f of fields)
    if (typeof f !== 'string' || !FIELD_PATH.test(f))
      return `fields entry ${JSON.stringify(f).slice(0, 60)} is not a dotted path (letters, digits, _ - @ $, and * for every item of a list)`;
  return null;
}

function treeOf(paths: string[]): Tree {
  const root: Tree = {};
  for (const path of paths) {
    const parts = path.split('.');
    let node = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = true;
      else {
        const next = node[part];
        if (next === true) return; // a shorter path already keeps the whole value
        node = node[part] = next ?? {};
      }
    });
  }
  return root;
}

function project(value: unknown, tree: Tree, seen: Set<string>, prefix: string): unknown {
  if (Array.isArray(value)) {
    // A list on the way applies the rest of the paths to each item; an explicit `*` is the same.
    const inner = tree['*'];
    const sub = inner === undefined ? tree : inner;
    if (sub === true) return value;
    return value.map((item) => project(item, sub, seen, prefix));
  }
  if (value === null || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, sub] of Object.entries(tree)) {
    if (key === '*') {
      for (const k of Object.keys(obj)) out[k] = sub === true ? obj[k] : project(obj[k], sub, seen, prefix);
      continue;
    }
    if (!Object.prototype.hasOwnProperty.call(obj, key)) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    seen.add(path);
    out[key] = sub === true ? obj[key] : project(obj[key], sub, seen, path);
  }
  return out;
}

/**
 * The data with only the given paths. `kept` lists the paths found in at least one item, `missing`
 * those found nowhere (a typo, or a field Gitea did not send), so the caller can tell them apart.
 */
export function selectFields(
  data: unknown,
  fields: string[],
): { data: unknown; kept: string[]; missing: string[] } {
  const seen = new Set<string>();
  const tree = treeOf(fields);
  const out = project(data, tree, seen, '');
  const kept: string[] = [];
  const missing: string[] = [];
  for (const f of fields) {
    const plain = f
      .split('.')
      .filter((p) => p !== '*')
      .join('.');
    if (plain === '' || seen.has(plain)) kept.push(f);
    else missing.push(f);
  }
  return { data: out, kept, missing };
}
