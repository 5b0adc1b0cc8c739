// `format: "table"` (issue 17): a list of objects as column names once and one row of values per
// item, instead of every key repeated in every item. Nested values are addressed by the dotted
// field paths (a `*` path becomes a list of values in its cell).

export type Table = { columns: string[]; rows: unknown[][] };

function valueAt(value: unknown, parts: string[]): unknown {
  if (parts.length === 0) return value;
  const [head, ...rest] = parts;
  // A list on the way: the rest of the path applies to each item (`*` says so explicitly).
  if (Array.isArray(value)) return value.map((item) => valueAt(item, head === '*' ? rest : parts));
  if (value === null || typeof value !== 'object') return null;
  if (head === '*') return Object.values(value).map((v) => valueAt(v, rest));
  const obj = value as Record<string, unknown>;
  return Object.prototype.hasOwnProperty.call(obj, head!) ? valueAt(obj[head!], rest) : null;
}

/** Column names: the selected fields, else the keys of the items in order of first appearance. */
function columnsOf(items: unknown[], fields: string[] | null): string[] {
  if (fields?.length) return fields;
  const seen = new Set<string>();
  for (const item of items)
    if (item && typeof item === 'object' && !Array.isArray(item))
      for (const k of Object.keys(item)) seen.add(k);
  return [...seen];
}

/** The list as a table, or null when the data is not a list of objects (then it stays as it is). */
export function toTable(data: unknown, fields: string[] | null): Table | null {
  if (!Array.isArray(data)) return null;
  if (!data.every((item) => item !== null && typeof item === 'object' && !Array.isArray(item))) return null;
  const columns = columnsOf(data, fields);
  const paths = columns.map((c) => c.split('.'));
  return { columns, rows: data.map((item) => paths.map((p) => valueAt(item, p) ?? null)) };
}
