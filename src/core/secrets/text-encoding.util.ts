// Which text encoding a byte sequence is in, and a lossless decoding and re-encoding of it, so
// that both secret layers see the characters of a file whatever its encoding: UTF-8, UTF-16LE/BE
// (with or without a byte-order mark) and Latin-1 (any byte sequence that is not valid UTF-8).
// Bytes that are none of these in any readable sense (images, compressed data) are "opaque": they
// are scanned, never rewritten (see bytes-scan.util.ts).

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'latin1';

export type ByteClass = {
  encoding: TextEncodingName;
  /** Length of the byte-order mark the bytes start with (0 when none). */
  bom: number;
  /** False for opaque bytes: a decoding exists (Latin-1 always does) but it is not text. */
  text: boolean;
};

const utf8Fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const SAMPLE = 8192;

function isUtf8(bytes: Uint8Array): boolean {
  try {
    utf8Fatal.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Share of control bytes (C0 other than tab, LF, CR, FF, ESC; and DEL) in a sample of the bytes. */
function controlShare(bytes: Uint8Array, step = 1, from = 0): number {
  const end = Math.min(bytes.length, from + SAMPLE * step);
  let n = 0;
  let ctrl = 0;
  for (let i = from; i < end; i += step) {
    const c = bytes[i]!;
    n++;
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12 && c !== 27) || c === 127) ctrl++;
  }
  return n === 0 ? 0 : ctrl / n;
}

/** UTF-16 without a byte-order mark: most code units of text are ASCII, so one byte of each is zero. */
function utf16Guess(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (bytes.length < 4) return null;
  const end = Math.min(bytes.length - 1, SAMPLE * 2);
  let evenZero = 0;
  let oddZero = 0;
  let pairs = 0;
  for (let i = 0; i < end; i += 2) {
    pairs++;
    if (bytes[i] === 0) evenZero++;
    if (bytes[i + 1] === 0) oddZero++;
  }
  if (oddZero >= pairs * 0.4 && evenZero <= pairs * 0.05) return 'utf-16le';
  if (evenZero >= pairs * 0.4 && oddZero <= pairs * 0.05) return 'utf-16be';
  return null;
}

/** The charset parameter of a Content-Type header, lower-cased, or null. */
export function charsetOf(contentType: string | undefined): string | null {
  const m = /;\s*charset\s*=\s*"?([A-Za-z0-9._:-]{1,40})/i.exec(contentType ?? '');
  return m ? m[1]!.toLowerCase() : null;
}

/**
 * Classifies bytes. The byte-order mark wins, then a declared UTF-16 charset, then the bytes
 * themselves (a declared charset of UTF-8 that the bytes break is not believed).
 */
export function classifyBytes(bytes: Uint8Array, declaredCharset: string | null = null): ByteClass {
  const b0 = bytes[0];
  const b1 = bytes[1];
  if (b0 === 0xef && b1 === 0xbb && bytes[2] === 0xbf && isUtf8(bytes.subarray(3)))
    return { encoding: 'utf-8', bom: 3, text: controlShare(bytes, 1, 3) <= 0.1 };
  if (b0 === 0xff && b1 === 0xfe) return { encoding: 'utf-16le', bom: 2, text: true };
  if (b0 === 0xfe && b1 === 0xff) return { encoding: 'utf-16be', bom: 2, text: true };
  const declared = declaredCharset ?? '';
  if (declared === 'utf-16le' || declared === 'utf-16be') return { encoding: declared, bom: 0, text: true };
  if (declared === 'utf-16') return { encoding: utf16Guess(bytes) ?? 'utf-16be', bom: 0, text: true };
  const guess = utf16Guess(bytes);
  if (guess) {
    // The non-zero bytes of UTF-16 text are themselves mostly printable.
    const from = guess === 'utf-16le' ? 0 : 1;
    if (controlShare(bytes, 2, from) <= 0.05) return { encoding: guess, bom: 0, text: true };
  }
  if (isUtf8(bytes)) return { encoding: 'utf-8', bom: 0, text: controlShare(bytes) <= 0.1 };
  return { encoding: 'latin1', bom: 0, text: controlShare(bytes) <= 0.02 };
}

function swap16(bytes: Uint8Array): Buffer {
  const out = Buffer.alloc(bytes.length);
  for (let i = 0; i + 1 < bytes.length; i += 2) {
    out[i] = bytes[i + 1]!;
    out[i + 1] = bytes[i]!;
  }
  if (bytes.length % 2 === 1) out[bytes.length - 1] = bytes[bytes.length - 1]!;
  return out;
}

const view = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * The characters of the bytes (byte-order mark left out). Lossless for every class: UTF-8 is valid
 * when chosen, UTF-16 code units are kept as they are (lone surrogates too), Latin-1 maps each byte
 * to one character. An odd trailing byte of UTF-16 becomes U+FFFD (re-encoding restores it).
 */
export function decodeBytes(bytes: Uint8Array, cls: ByteClass): string {
  const body = view(bytes).subarray(cls.bom);
  switch (cls.encoding) {
    case 'utf-8':
      return body.toString('utf8');
    case 'latin1':
      return body.toString('latin1');
    case 'utf-16le':
      return body.toString('utf16le') + (body.length % 2 === 1 ? '\ufffd' : '');
    case 'utf-16be':
      return swap16(body).toString('utf16le') + (body.length % 2 === 1 ? '\ufffd' : '');
  }
}

/** Bytes of text in the class's encoding, with the same byte-order mark as the original. */
export function encodeText(text: string, cls: ByteClass, original: Uint8Array): Buffer {
  const bom = view(original).subarray(0, cls.bom);
  let out: Buffer;
  switch (cls.encoding) {
    case 'utf-8':
      out = Buffer.from(text, 'utf8');
      break;
    case 'latin1':
      out = Buffer.from(text, 'latin1');
      break;
    case 'utf-16le':
    case 'utf-16be': {
      const odd = (original.length - cls.bom) % 2 === 1 && text.endsWith('\ufffd');
      const units = Buffer.from(odd ? text.slice(0, -1) : text, 'utf16le');
      const tail = odd ? view(original).subarray(original.length - 1) : Buffer.alloc(0);
      out = Buffer.concat([cls.encoding === 'utf-16be' ? swap16(units) : units, tail]);
      break;
    }
  }
  return cls.bom > 0 ? Buffer.concat([bom, out]) : out;
}

/** Decodes a text body as its bytes and declared charset say (for text/* and similar responses). */
export function decodeTextBody(bytes: Uint8Array, contentType: string | undefined): string {
  const cls = classifyBytes(bytes, charsetOf(contentType));
  return decodeBytes(bytes, cls);
}
