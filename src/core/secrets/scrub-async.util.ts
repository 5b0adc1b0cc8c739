// scrubResult for the call path: the opaque parts of a result (binary bodies, archives: the
// costly ones, since an archive is decompressed and every member scanned) are scanned first over
// the event loop (driveAsync), then the result goes through the synchronous engine with those
// verdicts in hand. Text and JSON bodies are bounded before they get here (the transport stops
// reading at MAX_TEXT_BODY_BYTES), so the synchronous part is bounded too.
import { DEFAULT_CONTAINER_POLICY, driveAsync, scanOpaque, type OpaqueVerdict } from './bytes-scan.util';
import { containerKind } from './container.util';
import { decodeBase64, scrubResult, type ScrubContext, type ScrubResult } from './scrub.util';
import { classifyBytes } from './text-encoding.util';

/** Where base64 contents sit in results: the binary envelope, contents and blobs, wiki pages, lists of them. */
const MAX_LOOK_DEPTH = 5;

function opaqueFields(value: unknown): string[] {
  const out: string[] = [];
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object' || depth > MAX_LOOK_DEPTH) continue;
    if (Array.isArray(v)) {
      for (const x of v) if (x !== null && typeof x === 'object') stack.push([x, depth + 1]);
      continue;
    }
    const o = v as Record<string, unknown>;
    if (typeof o.content_base64 === 'string') out.push(o.content_base64);
    if (o.encoding === 'base64' && typeof o.content === 'string') out.push(o.content);
    for (const k of Object.keys(o)) {
      const x = o[k];
      if (x !== null && typeof x === 'object') stack.push([x, depth + 1]);
    }
  }
  return out;
}

export async function scrubResultAsync(value: unknown, ctx: ScrubContext): Promise<ScrubResult> {
  const verdicts = new Map<string, OpaqueVerdict>();
  for (const raw of opaqueFields(value)) {
    if (verdicts.has(raw)) continue;
    const bytes = decodeBase64(raw);
    if (bytes === null) continue;
    const cls = classifyBytes(bytes);
    if (cls.text && containerKind(bytes) === null) continue; // rewritten as text by the engine
    verdicts.set(
      raw,
      await driveAsync(
        scanOpaque(bytes, {
          exactSecrets: ctx.exactSecrets ?? [],
          patterns: ctx.mode !== 'off' && !ctx.skipPatterns,
          containers: ctx.containers ?? DEFAULT_CONTAINER_POLICY,
        }),
      ),
    );
  }
  return scrubResult(value, verdicts.size > 0 ? { ...ctx, opaqueVerdicts: verdicts } : ctx);
}
