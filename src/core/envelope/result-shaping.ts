// What the result options do to a success envelope (issue 17), between decoding and the secret
// layers: text pages, field selection, hygiene of untrusted text, tables, and the continuation cursor
// (placed after the bounds, which may keep fewer items than Gitea sent).
import type { CatalogueOperation } from '../catalogue/tool-catalogue';
import type { CallIdentity } from '../ports';
import { randomHex8, type CursorCodec, type CursorState } from './cursor';
import { cursorSubject } from './cursor';
import { listIn, type Envelope } from './envelope';
import { selectFields } from './fields';
import { cleanJson, cleanText, emptyCounts, totalOf, type HygieneCounts, type HygieneMode } from './hygiene';
import { continuation, type ResultOptions } from './result-options';
import { toTable } from './table';
import { textPage, type TextRange, type TextWindow } from './text-pages';

/** Fields added to the ADR 0005 envelope by the result options (existing fields are unchanged). */
export type ShapedEnvelope = Envelope & {
  pagination?: Envelope['pagination'] & { next_cursor?: string };
  fields?: string[];
  fields_missing?: string[];
  hygiene?: HygieneCounts & { action: 'neutralised' | 'counted' };
  range?: TextRange;
};

// Room left in a text page for the envelope around it (identity, request, range, banner, cursor).
const TEXT_PAGE_OVERHEAD = 3000;

export function shapeResult(
  envelope: Envelope,
  ctx: {
    op: Pick<CatalogueOperation, 'paging' | 'listField'>;
    decodedFormat: string;
    call: { name: string; args: unknown; options: ResultOptions; offset: number | null };
    identity: CallIdentity;
    cursors: CursorCodec;
    maxChars: number;
    hygieneFiles: HygieneMode;
    /** Where a text body lies in the whole text (a Range window, a cut body). */
    window?: TextWindow;
  },
): {
  envelope: ShapedEnvelope;
  /**
   * The list's cursor when the bounds keep every item (applyBounds puts it in place of the
   * placeholder, see BoundsLimits.cursor); null when the result has no list cursor.
   */
  cursor: { placeholder: string; value: string } | null;
  finish(text: string, keptItems: number | null, cursorPlaced?: boolean): string;
} {
  const { options, offset } = ctx.call;
  const subject = cursorSubject(ctx.identity);
  const meta: Partial<ShapedEnvelope> = {};
  let data = envelope.data;
  let dataFormat = envelope.data_format as string | undefined;
  const counts = emptyCounts();
  let hygieneAction: 'neutralised' | 'counted' = 'neutralised';

  if (ctx.decodedFormat === 'text' && typeof data === 'string') {
    // File contents, diffs, logs: counted, changed only when the admin opted in; paged by bytes.
    hygieneAction = ctx.hygieneFiles === 'neutralise' ? 'neutralised' : 'counted';
    const budget = Math.max(1024, ctx.maxChars - TEXT_PAGE_OVERHEAD);
    const w = ctx.window ?? { start: 0, total: null, more: false, part: false, rangeable: false };
    // The cursor's offset is in the whole text; the body may be a window that starts further on.
    const local = Math.max(0, (offset ?? w.start) - w.start);
    const partial = w.start > 0 || w.more || w.part;
    if (local > 0 || partial || data.length > budget / 2 || JSON.stringify(data).length > budget) {
      const page = textPage(data, local, budget, w.more && w.rangeable);
      const inWindow = page.end < page.total;
      // Past the downloaded window only where a Range request can fetch the rest.
      const beyond = !inWindow && w.more && w.rangeable;
      if (page.start > 0 || inWindow || partial) {
        const start = w.start + page.start;
        const end = w.start + page.end;
        const total = w.total ?? (w.more ? null : w.start + page.total);
        const range: TextRange = { unit: 'bytes', start, end, total };
        if (inWindow || beyond) {
          range.next_cursor = ctx.cursors.encode(
            {
              tool: ctx.call.name,
              args: ctx.call.args as Record<string, unknown>,
              fields: null,
              format: 'json',
              offset: end,
            },
            subject,
          );
          range.hint = `Bytes ${start}-${end} of ${total ?? 'an unknown total'} (the page ends at a line end when one is near). Call ${ctx.call.name} with only {"cursor": range.next_cursor} for the next page.`;
        } else if (w.more) {
          range.hint = `Bytes ${start}-${end} of ${total ?? 'an unknown total'}: the rest was not read (see body_cut).`;
        }
        meta.range = range;
        data = page.text;
      }
    }
    data = cleanText(data as string, counts, ctx.hygieneFiles);
  } else if (ctx.decodedFormat === 'json' && data !== null) {
    if (options.fields) {
      const selected = selectFields(data, options.fields);
      data = selected.data;
      meta.fields = selected.kept;
      if (selected.missing.length) meta.fields_missing = selected.missing;
    }
    data = cleanJson(data, counts, ctx.hygieneFiles);
    if (options.format === 'table') {
      const table = toTable(data, meta.fields ?? null);
      if (table) {
        data = table;
        dataFormat = 'table';
      }
    }
  }
  if (totalOf(counts) > 0) meta.hygiene = { ...counts, action: hygieneAction };

  // The cursor of a list: a placeholder of the right length until the bounds say how many items stay.
  const p = envelope.pagination;
  const pageable = ctx.op.paging?.page != null || ctx.call.name === 'gitea_api_request';
  const listLength = listIn(envelope.data, ctx.op.listField)?.length ?? 0;
  const limitParam = ctx.op.paging?.limit ?? 'limit';
  const nextState = (page: number, limit: number | null): CursorState => ({
    tool: ctx.call.name,
    args: withPage(ctx.call.name, ctx.call.args, page, limit, limitParam),
    fields: options.fields,
    format: options.format,
  });
  // The cursor for "every item kept" is the one almost every call returns: encoded once here, and
  // put in place of the placeholder by the bounds, which measure the text with the placeholder's
  // length (so that any other cursor fits too) and leave it only when they cut the list.
  let placeholder: string | null = null;
  let full: string | null = null;
  let pagination = p as ShapedEnvelope['pagination'];
  if (p && p.next_page !== null && pageable && listLength > 0) {
    full = ctx.cursors.encode(nextState(p.next_page, p.limit), subject);
    placeholder = `~cursor~${randomHex8()}`.padEnd(full.length + 24, '~');
    pagination = { ...p, next_cursor: placeholder };
  }

  // Key order stays who, what, status, paging, banner, then the new metadata, then the data.
  const shaped: ShapedEnvelope = {
    identity: envelope.identity,
    request: envelope.request,
    status: envelope.status,
    ...(pagination ? { pagination } : {}),
    ...(envelope.headers ? { headers: envelope.headers } : {}),
    ...(envelope.body_cut ? { body_cut: envelope.body_cut } : {}),
    untrusted_content: envelope.untrusted_content,
    ...meta,
    ...(dataFormat ? { data_format: dataFormat as Envelope['data_format'] } : {}),
    data,
  };

  return {
    envelope: shaped,
    cursor: placeholder && full ? { placeholder, value: full } : null,
    finish(text, keptItems, cursorPlaced = false) {
      if (!placeholder || !p) return text;
      const kept = keptItems ?? listLength;
      if (kept >= listLength)
        return cursorPlaced ? text : text.replace(JSON.stringify(placeholder), JSON.stringify(full));
      const next = continuation(p.page ?? 1, p.limit ?? listLength, kept);
      const cursor = ctx.cursors.encode(nextState(next.page, next.limit), subject);
      // Items were cut, so the bounds never placed the full cursor (cursorPlaced is for all kept).
      return text.replace(JSON.stringify(placeholder), JSON.stringify(cursor));
    },
  };
}

/** The call's arguments with the page (and limit) of the next request. */
function withPage(
  tool: string,
  args: unknown,
  page: number,
  limit: number | null,
  limitParam: string,
): Record<string, unknown> {
  const a = { ...((args ?? {}) as Record<string, unknown>) };
  if (tool === 'gitea_api_request') {
    const query: Record<string, unknown> = { ...((a.query ?? {}) as Record<string, unknown>), page };
    if (limit !== null) query[limitParam] = limit;
    a.query = query;
    return a;
  }
  a.page = page;
  if (limit !== null) a[limitParam] = limit;
  return a;
}
