// Scanning of bytes that cannot be rewritten in place: binary bodies (images, executables, any
// bytes that are not text) and containers (zip, tar, gzip). Both layers look at them: exact
// secrets as their UTF-8/Latin-1, UTF-16LE and UTF-16BE bytes, patterns on the Latin-1 decoding
// (lossless: one character per byte) and, for binaries, on both UTF-16 decodings; container members
// are read one by one under a budget and scanned as what they are (text in its own encoding, binary,
// or a nested container). Anything found, or anything that could not be read, withholds the
// result: a zip or an image with a secret replaced by a marker would no longer be a zip or an image,
// and the caller can fetch the member files one by one, masked, through the contents tools.
//
// The scan is a generator that yields after each slice of work, so it can run to completion at
// once (driveSync) or spread over the event loop (driveAsync) without holding it for long.
import { type Budget, containerKind, readContainer, type ContainerKind } from './container.util';
import { scanText } from './pattern-scanner.util';
import { classifyBytes, decodeBytes } from './text-encoding.util';

export type ContainerPolicy = {
  /** scan: read members within the budget; withhold: never return a container. */
  mode: 'scan' | 'withhold';
  /** Uncompressed bytes read from the containers of one result, nested ones included. */
  maxBytes: number;
  /** Members read from the containers of one result. */
  maxMembers: number;
};

export const DEFAULT_CONTAINER_POLICY: ContainerPolicy = {
  mode: 'scan',
  maxBytes: 32 * 1024 * 1024,
  maxMembers: 10_000,
};

export type OpaqueContext = {
  exactSecrets: string[];
  patterns: boolean;
  containers: ContainerPolicy;
};

export type OpaqueVerdict = {
  redactions: number;
  masks: number;
  kinds: Set<string>;
  /** Why the bytes are withheld; empty when nothing was found and everything was read. */
  reasons: string[];
};

/** Kind reported for a configured or request secret found by exact match (never its value). */
export const EXACT_KIND = 'configured-secret';
const MAX_DEPTH = 4;
const MAX_REASONS = 5;
/** Characters scanned between two yields (a few milliseconds of pattern scanning). */
const SLICE = 512 * 1024;
/** Longest match the slices must not cut: PEM blocks and JWTs are the longest secrets. */
const OVERLAP = 16 * 1024;

const view = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

function exactNeedles(secrets: string[]): Buffer[] {
  const out = new Map<string, Buffer>();
  for (const s of secrets) {
    if (typeof s !== 'string' || s.length === 0) continue;
    for (const form of new Set([s, encodeURIComponent(s)])) {
      for (const enc of ['utf8', 'latin1', 'utf16le'] as const) {
        const b = Buffer.from(form, enc);
        out.set(b.toString('hex'), b);
        if (enc === 'utf16le') {
          const be = Buffer.alloc(b.length);
          for (let i = 0; i + 1 < b.length; i += 2) [be[i], be[i + 1]] = [b[i + 1]!, b[i]!];
          out.set(be.toString('hex'), be);
        }
      }
    }
  }
  return [...out.values()];
}

function countExact(bytes: Buffer, needles: Buffer[]): number {
  let n = 0;
  for (const needle of needles)
    for (let i = bytes.indexOf(needle); i >= 0; i = bytes.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** Pattern hits in a text, slice by slice (a hit is counted in the slice where it starts). */
function* scanPatterns(text: string, into: OpaqueVerdict): Generator<void> {
  for (let s = 0; s < text.length; s += SLICE) {
    const end = Math.min(text.length, s + SLICE);
    const window = text.slice(s, Math.min(text.length, end + OVERLAP));
    for (const m of scanText(window)) {
      if (s + m.start >= end) continue;
      into.masks++;
      into.kinds.add(m.kind);
    }
    if (end < text.length) yield;
  }
}

/** Exact secrets in a decoded text (as the text layer would find them). */
function countExactInText(text: string, secrets: string[]): number {
  let n = 0;
  for (const s of secrets) {
    if (typeof s !== 'string' || s.length === 0) continue;
    for (const form of new Set([s, encodeURIComponent(s)]))
      for (let i = text.indexOf(form); i >= 0; i = text.indexOf(form, i + form.length)) n++;
  }
  return n;
}

function note(v: OpaqueVerdict, reason: string): void {
  if (v.reasons.length < MAX_REASONS) v.reasons.push(reason);
  else if (v.reasons.length === MAX_REASONS) v.reasons.push('...');
}

const LABEL: Record<ContainerKind, string> = {
  zip: 'zip archive',
  gzip: 'gzip stream',
  tar: 'tar archive',
  'git-bundle': 'git bundle',
};

/**
 * Scans bytes that will be returned as they are (never rewritten). `where` names them in reasons
 * ("the body", "member config/.env of the zip archive").
 */
export function* scanOpaque(
  bytes: Uint8Array,
  ctx: OpaqueContext,
  where = 'the body',
  budget: Budget = { bytesLeft: ctx.containers.maxBytes, membersLeft: ctx.containers.maxMembers },
  depth = 0,
  into: OpaqueVerdict = { redactions: 0, masks: 0, kinds: new Set(), reasons: [] },
): Generator<void, OpaqueVerdict> {
  const needles = exactNeedles(ctx.exactSecrets);
  const kind = containerKind(bytes);
  if (kind !== null) {
    // Stored (uncompressed) member bytes and names are in the raw container too.
    const raw = countExact(view(bytes), needles);
    if (raw > 0) {
      into.redactions += raw;
      into.kinds.add(EXACT_KIND);
    }
    if (ctx.containers.mode === 'withhold') {
      note(into, `${where} is a ${LABEL[kind]}, and archives are withheld (SECRET_SCAN_ARCHIVES=withhold)`);
      return into;
    }
    if (depth >= MAX_DEPTH) {
      note(into, `${where} is a ${LABEL[kind]} nested more than ${MAX_DEPTH} levels deep, not scanned`);
      return into;
    }
    const steps = readContainer(kind, bytes, budget)[Symbol.iterator]();
    for (;;) {
      let step: IteratorResult<{ member: { path: string; bytes: Uint8Array } } | { unreadable: string }>;
      try {
        step = steps.next();
      } catch {
        note(into, `${where} is a damaged ${LABEL[kind]} that could not be read to the end`);
        return into;
      }
      if (step.done) break;
      const s = step.value;
      if ('unreadable' in s) {
        note(into, `${where} (${LABEL[kind]}) could not be scanned fully: ${s.unreadable}`);
        return into;
      }
      const before = into.redactions + into.masks;
      const path = `member ${s.member.path.slice(0, 200)} of ${where === 'the body' ? `the ${LABEL[kind]}` : where}`;
      yield* scanMember(s.member.bytes, ctx, path, budget, depth + 1, into);
      if (into.redactions + into.masks > before) note(into, `secrets in ${path}`);
      yield;
    }
    return into;
  }
  yield* scanMember(bytes, ctx, where, budget, depth, into, needles);
  return into;
}

/** One member (or a whole non-container body): text in its own encoding, binary, or a container. */
function* scanMember(
  bytes: Uint8Array,
  ctx: OpaqueContext,
  where: string,
  budget: Budget,
  depth: number,
  into: OpaqueVerdict,
  needles = exactNeedles(ctx.exactSecrets),
): Generator<void> {
  if (containerKind(bytes) !== null) {
    yield* scanOpaque(bytes, ctx, where, budget, depth, into);
    return;
  }
  const cls = classifyBytes(bytes);
  const decodings: string[] = [];
  if (cls.text) {
    const text = decodeBytes(bytes, cls);
    const n = countExactInText(text, ctx.exactSecrets);
    if (n > 0) {
      into.redactions += n;
      into.kinds.add(EXACT_KIND);
    }
    decodings.push(text);
  } else {
    const n = countExact(view(bytes), needles);
    if (n > 0) {
      into.redactions += n;
      into.kinds.add(EXACT_KIND);
    }
    if (ctx.patterns) {
      const b = view(bytes);
      decodings.push(b.toString('latin1'));
      decodings.push(b.toString('utf16le'));
      decodings.push(decodeBytes(bytes, { encoding: 'utf-16be', bom: 0, text: false }));
    }
  }
  if (!ctx.patterns) return;
  for (const text of decodings) yield* scanPatterns(text, into);
}

/** Runs a scan to its end at once. */
export function driveSync<T>(gen: Generator<void, T>): T {
  for (;;) {
    const r = gen.next();
    if (r.done) return r.value;
  }
}

/**
 * Runs a scan over the event loop: after each slice of work that took `sliceMs` or more, it waits
 * for the next turn (setImmediate), so timers, health checks and other requests are served between
 * slices. A slice is bounded (SLICE characters or one container member read), so the loop is never
 * held for much longer than one slice.
 */
export async function driveAsync<T>(gen: Generator<void, T>, sliceMs = 8): Promise<T> {
  let t0 = performance.now();
  for (;;) {
    const r = gen.next();
    if (r.done) return r.value;
    if (performance.now() - t0 >= sliceMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      t0 = performance.now();
    }
  }
}
