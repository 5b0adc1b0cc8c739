// The result options every tool accepts besides its own arguments (issue 17), documented once in
// the server instructions and gitea_describe_tool rather than in 486 input schemas:
//   fields: ["number", "title", "user.login", "labels.*.name"]   keep only these paths
//   format: "table"                                              a list as columns + rows
//   cursor: "<next_cursor>"                                      the next page of an earlier call
// None of Gitea 1.27.1's operations has a parameter with these names, so they never shadow one.
import { fieldsProblem } from './fields';

export const RESULT_OPTION_NAMES = ['fields', 'format', 'cursor'] as const;

export type ResultOptions = {
  fields: string[] | null;
  format: 'json' | 'table';
  cursor: string | null;
};

export const RESULT_OPTIONS_HELP =
  'Every Gitea tool also accepts: "fields" (array of dotted paths, * for every item of a list, e.g. ["number","title","user.login","labels.*.name"]) to keep only those fields of the result; "format": "table" to get a list as {columns, rows}; and "cursor": pass a result\'s pagination.next_cursor (or range.next_cursor for long text) as the only argument to get the next page with the same arguments and fields.';

export class ResultOptionError extends Error {}

/** Splits the result options off a tool's arguments; the rest is validated against the tool's schema. */
export function takeResultOptions(args: unknown): { args: unknown; options: ResultOptions } {
  const none: ResultOptions = { fields: null, format: 'json', cursor: null };
  if (!args || typeof args !== 'object' || Array.isArray(args)) return { args, options: none };
  const a = args as Record<string, unknown>;
  if (!('fields' in a) && !('format' in a) && !('cursor' in a)) return { args, options: none };
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(a))
    if (!(RESULT_OPTION_NAMES as readonly string[]).includes(k)) rest[k] = v;
  const options = { ...none };
  if (a.fields !== undefined) {
    const problem = fieldsProblem(a.fields);
    if (problem) throw new ResultOptionError(problem);
    options.fields = [...new Set(a.fields as string[])];
  }
  if (a.format !== undefined) {
    if (a.format !== 'json' && a.format !== 'table')
      throw new ResultOptionError('format must be "json" (the default) or "table"');
    options.format = a.format;
  }
  if (a.cursor !== undefined) {
    if (typeof a.cursor !== 'string' || a.cursor.length === 0)
      throw new ResultOptionError('cursor must be the next_cursor string of an earlier result');
    if (Object.keys(rest).length || a.fields !== undefined || a.format !== undefined)
      throw new ResultOptionError(
        'cursor must be the only argument: it carries the arguments, fields and format of the first call',
      );
    options.cursor = a.cursor;
  }
  return { args: rest, options };
}

/**
 * The page and limit that continue a list exactly after `kept` items of page `page` (size `limit`):
 * the next Gitea page when the whole page was returned, else a smaller limit that divides the offset,
 * so no item is skipped when the response limits cut a page.
 */
export function continuation(page: number, limit: number, kept: number): { page: number; limit: number } {
  if (kept >= limit) return { page: page + 1, limit };
  const offset = (page - 1) * limit + kept;
  let size = Math.max(1, kept);
  while (size > 1 && offset % size !== 0) size--;
  return { page: offset / size + 1, limit: size };
}
