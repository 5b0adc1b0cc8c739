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

/** opaqueFields' stacks (value, depth), kept between calls: the walk is synchronous and empties them. */
const LOOK = { values: [] as unknown[], depths: [] as number[] };

function opaqueFields(value: unknown): string[] {
  const out: string[] = [];
  // Two parallel stacks instead of a [value, depth] pair per container (the walk visits every
  // object and array of a result down to MAX_LOOK_DEPTH).
  const { values, depths } = LOOK;
  values.length = depths.length = 0;
  values.push(value);
  depths.push(0);
  try {
    while (values.length > 0) {
      const v = values.pop();
      const depth = depths.pop()!;
      if (v === null || typeof v !== 'object' || depth > MAX_LOOK_DEPTH) continue;
      if (Array.isArray(v)) {
        for (const x of v)
          if (x !== null && typeof x === 'object') {
            values.push(x);
            depths.push(depth + 1);
          }
        continue;
      }
      const o = v as Record<string, unknown>;
      if (typeof o.content_base64 === 'string') out.push(o.content_base64);
      if (o.encoding === 'base64' && typeof o.content === 'string') out.push(o.content);
      for (const k of Object.keys(o)) {
        const x = o[k];
        if (x !== null && typeof x === 'object') {
          values.push(x);
          depths.push(depth + 1);
        }
      }
    }
  } finally {
    // Nothing of this result stays referenced, even when a step threw.
    values.length = depths.length = 0;
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
