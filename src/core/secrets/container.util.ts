// Readers for the containers Gitea hands out (repository archives: zip and tar.gz; gzip and tar in
// general, which also covers Actions artifacts and zip-based files such as .jar or .docx), written
// for scanning only: members are yielded one at a time, decompressed under a byte budget (a zip
// bomb stops at the budget, whatever sizes its headers claim), and anything that cannot be read
// (encryption, an unknown compression method, ZIP64, a damaged header) is reported, never skipped.
import { gunzipSync, inflateRawSync } from 'node:zlib';

export type ContainerKind = 'zip' | 'gzip' | 'tar' | 'git-bundle';

export type Member = { path: string; bytes: Uint8Array };
/** A container reader yields members, or a reason why the rest cannot be read. */
export type MemberStep = { member: Member } | { unreadable: string };

/** The container format of the bytes, by their magic numbers, or null. */
export function containerKind(bytes: Uint8Array): ContainerKind | null {
  if (bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b) {
    const b2 = bytes[2];
    if ((b2 === 3 && bytes[3] === 4) || (b2 === 5 && bytes[3] === 6) || (b2 === 7 && bytes[3] === 8))
      return 'zip';
  }
  if (bytes.length >= 3 && bytes[0] === 0x1f && bytes[1] === 0x8b && bytes[2] === 8) return 'gzip';
  if (isTar(bytes)) return 'tar';
  if (startsWith(bytes, '# v2 git bundle') || startsWith(bytes, '# v3 git bundle')) return 'git-bundle';
  return null;
}

function startsWith(bytes: Uint8Array, text: string): boolean {
  if (bytes.length < text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[i] !== text.charCodeAt(i)) return false;
  return true;
}

const view = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

/** A tar stream starts with a header block whose checksum is right (ustar or the old format). */
function isTar(bytes: Uint8Array): boolean {
  if (bytes.length < 512) return false;
  const h = view(bytes).subarray(0, 512);
  const sum = octal(h, 148, 8);
  if (sum === null) return false;
  let s = 0;
  for (let i = 0; i < 512; i++) s += i >= 148 && i < 156 ? 32 : h[i]!;
  return s === sum && h[0] !== 0;
}

function octal(b: Buffer, at: number, len: number): number | null {
  const s = b
    .subarray(at, at + len)
    .toString('latin1')
    .replace(/[\0 ]+$/g, '')
    .trim();
  if (s === '') return 0;
  return /^[0-7]{1,12}$/.test(s) ? parseInt(s, 8) : null;
}

function cstr(b: Buffer, at: number, len: number): string {
  const part = b.subarray(at, at + len);
  const nul = part.indexOf(0);
  return (nul >= 0 ? part.subarray(0, nul) : part).toString('utf8');
}

/** A byte budget shared by all the members of one result (nested containers included). */
export type Budget = { bytesLeft: number; membersLeft: number };

/** Decompresses under the budget; null when the output would pass it. */
function inflateWithin(fn: typeof inflateRawSync, data: Uint8Array, budget: Budget): Buffer | null {
  if (budget.bytesLeft <= 0) return null;
  try {
    return fn(data, { maxOutputLength: Math.max(1, budget.bytesLeft) });
  } catch (error) {
    if (error instanceof RangeError || (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      return null;
    throw error;
  }
}

function take(budget: Budget, n: number): boolean {
  budget.membersLeft--;
  budget.bytesLeft -= n;
  return budget.membersLeft >= 0 && budget.bytesLeft >= 0;
}

export function* readZip(bytes: Uint8Array, budget: Budget): Generator<MemberStep> {
  const b = view(bytes);
  // End of central directory: 22 bytes plus a comment of up to 65535 bytes, at the end.
  let eocd = -1;
  for (let i = b.length - 22; i >= Math.max(0, b.length - 22 - 65535); i--) {
    if (b.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) {
    yield { unreadable: 'zip without a central directory (damaged or cut)' };
    return;
  }
  const count = b.readUInt16LE(eocd + 10);
  const cdOffset = b.readUInt32LE(eocd + 16);
  if (count === 0xffff || cdOffset === 0xffffffff) {
    yield { unreadable: 'ZIP64 archives are not scanned' };
    return;
  }
  let p = cdOffset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > b.length || b.readUInt32LE(p) !== 0x02014b50) {
      yield { unreadable: 'damaged zip central directory' };
      return;
    }
    const flags = b.readUInt16LE(p + 8);
    const method = b.readUInt16LE(p + 10);
    const compSize = b.readUInt32LE(p + 20);
    const nameLen = b.readUInt16LE(p + 28);
    const extraLen = b.readUInt16LE(p + 30);
    const commentLen = b.readUInt16LE(p + 32);
    const local = b.readUInt32LE(p + 42);
    const path = b.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    p += 46 + nameLen + extraLen + commentLen;
    if (path.endsWith('/') && compSize === 0) continue; // a directory
    if (flags & 1) {
      yield { unreadable: `zip member ${path.slice(0, 200)} is encrypted` };
      return;
    }
    if (local + 30 > b.length || b.readUInt32LE(local) !== 0x04034b50) {
      yield { unreadable: 'damaged zip local header' };
      return;
    }
    const start = local + 30 + b.readUInt16LE(local + 26) + b.readUInt16LE(local + 28);
    const raw = b.subarray(start, start + compSize);
    let data: Uint8Array | null;
    if (method === 0) data = raw;
    else if (method === 8) data = inflateWithin(inflateRawSync, raw, budget);
    else {
      yield { unreadable: `zip member ${path.slice(0, 200)} uses compression method ${method}` };
      return;
    }
    if (data === null || !take(budget, data.length)) {
      yield { unreadable: 'the archive holds more than the scan budget' };
      return;
    }
    yield { member: { path, bytes: data } };
  }
}

export function* readTar(bytes: Uint8Array, budget: Budget): Generator<MemberStep> {
  const b = view(bytes);
  let p = 0;
  let longName: string | null = null;
  while (p + 512 <= b.length) {
    const h = b.subarray(p, p + 512);
    if (h.every((x) => x === 0)) return; // end of archive
    const size = h[124]! & 0x80 ? null : octal(h, 124, 12);
    if (size === null || !isTar(h)) {
      yield { unreadable: 'damaged tar header' };
      return;
    }
    const type = String.fromCharCode(h[156]!);
    const prefix = h.subarray(257, 262).toString('latin1') === 'ustar' ? cstr(h, 345, 155) : '';
    const name = longName ?? (prefix ? `${prefix}/${cstr(h, 0, 100)}` : cstr(h, 0, 100));
    longName = null;
    const data = b.subarray(p + 512, p + 512 + size);
    p += 512 + Math.ceil(size / 512) * 512;
    if (data.length < size) {
      yield { unreadable: 'tar member cut short' };
      return;
    }
    if (type === 'L') longName = cstr(data, 0, data.length);
    if (size === 0) continue;
    if (!take(budget, size)) {
      yield { unreadable: 'the archive holds more than the scan budget' };
      return;
    }
    // Regular files, and the metadata records (pax headers, long names), which are text too.
    yield { member: { path: name, bytes: data } };
  }
}

export function* readGzip(bytes: Uint8Array, budget: Budget): Generator<MemberStep> {
  const data = inflateWithin(gunzipSync as typeof inflateRawSync, bytes, budget);
  if (data === null) {
    yield { unreadable: 'the archive holds more than the scan budget' };
    return;
  }
  if (!take(budget, 0)) {
    yield { unreadable: 'the archive holds more than the scan budget' };
    return;
  }
  yield { member: { path: '(gzip content)', bytes: data } };
}

export function readContainer(kind: ContainerKind, bytes: Uint8Array, budget: Budget): Iterable<MemberStep> {
  switch (kind) {
    case 'zip':
      return readZip(bytes, budget);
    case 'tar':
      return readTar(bytes, budget);
    case 'gzip':
      return readGzip(bytes, budget);
    case 'git-bundle':
      return [{ unreadable: 'git bundles (compressed pack files) are not scanned' }];
  }
}

/**
 * How many bytes a scan of `bytes` reads, at most `maxBytes`: a container's expanded size (the zip
 * central directory's uncompressed sizes, a gzip stream's ISIZE trailer, a tar as it is), any other
 * body its own size. Read from the headers only, without inflating, so that a small archive with
 * large members can be sent to a worker thread before its scan starts (ADR 0018). Headers can lie,
 * but the scan itself is bounded by the budget whatever they claim; what cannot be read counts as
 * the whole budget (the safe side: off the event loop).
 */
export function containerWorkBytes(bytes: Uint8Array, maxBytes: number): number {
  const kind = containerKind(bytes);
  let work = bytes.length;
  if (kind === 'zip') work = Math.max(bytes.length, zipExpandedBytes(bytes) ?? maxBytes);
  else if (kind === 'gzip' && bytes.length >= 18) {
    const b = view(bytes);
    // ISIZE: the inflated size of the (last) stream, mod 2^32.
    work = Math.max(bytes.length, b.readUInt32LE(b.length - 4));
  }
  return Math.min(Math.max(work, bytes.length), Math.max(maxBytes, bytes.length));
}

/** Sum of the uncompressed sizes in a zip's central directory, or null when it cannot be read. */
function zipExpandedBytes(bytes: Uint8Array): number | null {
  const b = view(bytes);
  let eocd = -1;
  for (let i = b.length - 22; i >= Math.max(0, b.length - 22 - 65535); i--) {
    if (b.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const count = b.readUInt16LE(eocd + 10);
  let p = b.readUInt32LE(eocd + 16);
  if (count === 0xffff || p === 0xffffffff) return null;
  let total = 0;
  for (let n = 0; n < count; n++) {
    if (p + 46 > b.length || b.readUInt32LE(p) !== 0x02014b50) return null;
    const size = b.readUInt32LE(p + 24);
    if (size === 0xffffffff) return null;
    total += size;
    p += 46 + b.readUInt16LE(p + 28) + b.readUInt16LE(p + 30) + b.readUInt16LE(p + 32);
  }
  return total;
}
