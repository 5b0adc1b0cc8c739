// The SDK's era classification (classifyInboundRequest), remembered for the request shapes that
// repeat. A 2026-07-28 client sends the same envelope (`_meta`) and headers with every call; the
// SDK validates the message and the envelope with zod each time (about a tenth of the CPU of a
// 2026-07-28 call). What its verdict on a request reads, from its own schemas: the headers, the
// top-level keys (the message schema is strict), `jsonrpc`, the id's type (a string or a safe
// integer), the method, whether `params` is an object, and `_meta`; the other members of `params`
// (a call's name and arguments) are passed through unread. So a request of that plain form is
// classified once per distinct (headers, method, params present, `_meta`),
// and the verdict is reused with the new message. Anything else, `initialize` (whose verdict reads
// `params.protocolVersion`) and the SDK's rejections (which carry error objects) are never
// remembered: those are classified afresh, exactly as before.
import { classifyInboundRequest } from '@modelcontextprotocol/server';

export type InboundClassification = ReturnType<typeof classifyInboundRequest>;

export type InboundRequest = {
  protocolVersionHeader: string | undefined;
  mcpMethodHeader: string | undefined;
  mcpNameHeader: string | undefined;
  body: unknown;
};

const TOP_LEVEL_KEYS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);
/** Verdicts remembered before the memory starts over. */
const CACHE_LIMIT = 1024;
/** A key longer than this (a large `_meta`) is not remembered: the cache stays small. */
const MAX_KEY_CHARS = 2048;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export class EraClassifier {
  private readonly verdicts = new Map<string, InboundClassification>();

  constructor(private readonly classify: typeof classifyInboundRequest = classifyInboundRequest) {}

  /** Verdicts held now (tests, diagnostics). */
  get size(): number {
    return this.verdicts.size;
  }

  classifyPost(request: InboundRequest): InboundClassification {
    const key = shapeKey(request);
    if (key === null) return this.run(request);
    const known = this.verdicts.get(key);
    if (known !== undefined)
      return known.kind === 'modern' ? ({ ...known, message: request.body } as InboundClassification) : known;
    const verdict = this.run(request);
    // Only routing verdicts; a rejection is built afresh each time (it holds its own error).
    if (verdict.kind === 'modern' || verdict.kind === 'legacy') {
      if (this.verdicts.size >= CACHE_LIMIT) this.verdicts.clear();
      this.verdicts.set(key, verdict);
    }
    return verdict;
  }

  private run(request: InboundRequest): InboundClassification {
    return this.classify({ httpMethod: 'POST', ...request });
  }
}

/** What the SDK's verdict on this request reads, as one string; null when it is not of the plain form. */
function shapeKey(request: InboundRequest): string | null {
  const body = request.body;
  if (!isPlainObject(body)) return null;
  for (const key of Object.keys(body)) if (!TOP_LEVEL_KEYS.has(key)) return null;
  const { id, method, params } = body;
  if (body.jsonrpc !== '2.0' || typeof method !== 'string' || method === 'initialize') return null;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return null;
  if (params !== undefined && !isPlainObject(params)) return null;
  // No params, params without `_meta`, or its `_meta` (a `_meta` of null is not an absent one).
  const envelope =
    params === undefined ? 0 : Object.prototype.hasOwnProperty.call(params, '_meta') ? [params._meta] : 1;
  // An absent header is 0 (a header is a string). JSON cannot tell an overflowed number (Infinity)
  // from null, so a key that holds null anywhere is not remembered.
  const key = JSON.stringify([
    request.protocolVersionHeader ?? 0,
    request.mcpMethodHeader ?? 0,
    request.mcpNameHeader ?? 0,
    method,
    envelope,
  ]);
  return key.length > MAX_KEY_CHARS || key.includes('null') ? null : key;
}
