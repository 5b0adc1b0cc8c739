// The benchmark's result rows and their rendering (stdout table and Markdown). Pure functions.

export type Verdict = 'PASS' | 'FAIL' | 'info' | 'n/a';

export type BenchRow = {
  section: string;
  figure: string;
  /** Rendered value (already formatted with its unit), or a reason when not measured. */
  value: string;
  /** Rendered target ("<= 1 ms") or '' when the figure is informational. */
  target: string;
  verdict: Verdict;
  /** The raw number, for the JSON file. */
  raw?: number | null;
  note?: string;
  /**
   * The sidecar configuration a figure belongs to (a ConfigColumn key), '*' for a reference shared
   * by every configuration; unset for figures that do not depend on one (secrets, in process).
   */
  config?: string;
};

/** A column pair (value, result) of the side-by-side table. */
export type ConfigColumn = { key: string; title: string };

/** A figure checked against "value <= limit" or "value >= limit". */
export function checkedRow(
  section: string,
  figure: string,
  raw: number,
  unit: string,
  op: '<=' | '>=',
  limit: number,
  note?: string,
): BenchRow {
  const ok = Number.isFinite(raw) && (op === '<=' ? raw <= limit : raw >= limit);
  return {
    section,
    figure,
    value: formatNumber(raw, unit),
    target: `${op} ${formatNumber(limit, unit)}`,
    verdict: ok ? 'PASS' : 'FAIL',
    raw,
    ...(note ? { note } : {}),
  };
}

export function infoRow(section: string, figure: string, raw: number, unit: string, note?: string): BenchRow {
  return {
    section,
    figure,
    value: formatNumber(raw, unit),
    target: '',
    verdict: 'info',
    raw,
    ...(note ? { note } : {}),
  };
}

/** A row for a figure that could not be measured in this run (missing piece, failure). */
export function unavailableRow(section: string, figure: string, reason: string, target = ''): BenchRow {
  return { section, figure, value: reason, target, verdict: 'n/a', raw: null };
}

export function formatNumber(v: number, unit: string): string {
  if (!Number.isFinite(v)) return `- ${unit}`.trim();
  const abs = Math.abs(v);
  let digits = 0;
  if (abs < 10) digits = 2;
  else if (abs < 100) digits = 1;
  if (unit === '%') return `${v.toFixed(abs < 100 ? 1 : 0)} %`;
  const text = v.toFixed(digits);
  return unit ? `${text} ${unit}` : text;
}

/** A fixed-width text table; widths follow the longest cell of each column. */
export function formatTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] as number))
      .join(' | ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('-+-');
  return [line(headers), rule, ...rows.map((r) => line(headers.map((_, i) => r[i] ?? '')))].join('\n');
}

const HEADERS = ['Section', 'Figure', 'Value', 'Target', 'Result'] as const;

export function renderRows(rows: readonly BenchRow[]): string {
  return formatTable(
    HEADERS,
    rows.map((r) => [r.section, r.figure, r.value, r.target, r.verdict]),
  );
}

export function renderMarkdown(rows: readonly BenchRow[]): string {
  const esc = (s: string): string => s.replace(/\|/g, '\\|');
  const out = [`| ${HEADERS.join(' | ')} |`, `|${HEADERS.map(() => '---').join('|')}|`];
  for (const r of rows) {
    const cells = [r.section, r.figure, r.value, r.target, r.verdict].map(esc);
    out.push(`| ${cells.join(' | ')} |`);
  }
  return out.join('\n');
}

/** The figure tagged with a configuration (a copy). */
export function forConfig(row: BenchRow, config: string): BenchRow {
  return { ...row, config };
}

/**
 * The configuration-tagged rows as one line per (section, figure), with a value and a result per
 * configuration side by side; '-' where a configuration has no such figure. Shared references
 * (config '*') show their value under every configuration. Where the configurations of a figure
 * have different targets (RSS: 300 MB embedded, 200 MB production), the target cell names each.
 */
export function sideBySideCells(
  rows: readonly BenchRow[],
  configs: readonly ConfigColumn[],
): { headers: string[]; cells: string[][] } {
  const groups = new Map<
    string,
    { section: string; figure: string; target: string; by: Map<string, BenchRow> }
  >();
  for (const r of rows) {
    if (!r.config) continue;
    const key = `${r.section}\u0000${r.figure}`;
    let g = groups.get(key);
    if (!g) {
      g = { section: r.section, figure: r.figure, target: r.target, by: new Map() };
      groups.set(key, g);
    }
    if (!g.target) g.target = r.target;
    g.by.set(r.config, r);
  }
  for (const g of groups.values()) {
    const targets = configs
      .map((c) => ({ title: c.title, target: g.by.get(c.key)?.target ?? '' }))
      .filter((t) => t.target);
    if (new Set(targets.map((t) => t.target)).size > 1)
      g.target = targets.map((t) => `${t.target} (${t.title})`).join(' / ');
  }
  const result = (r: BenchRow): string => (r.verdict === 'info' ? '' : r.verdict);
  const headers = ['Section', 'Figure', 'Target', ...configs.flatMap((c) => [c.title, 'Result'])];
  const cells = [...groups.values()].map((g) => [
    g.section,
    g.figure,
    g.target,
    ...configs.flatMap((c) => {
      const r = g.by.get(c.key) ?? g.by.get('*');
      return r ? [r.value, result(r)] : ['-', ''];
    }),
  ]);
  return { headers, cells };
}

export function markdownTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const esc = (s: string): string => s.replace(/\|/g, '\\|');
  return [
    `| ${headers.map(esc).join(' | ')} |`,
    `|${headers.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${headers.map((_, i) => esc(r[i] ?? '')).join(' | ')} |`),
  ].join('\n');
}
