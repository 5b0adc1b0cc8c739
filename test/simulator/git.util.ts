// Text renderings of the tiny git model: unified diffs, format-patch output, archives.
import { gzipSync } from 'node:zlib';
import * as zlib from 'node:zlib';
import type { Commit, User } from './state';

function fileDiff(path: string, before: Buffer | undefined, after: Buffer | undefined): string {
  const a = before ? before.toString('utf8').split('\n') : [];
  const b = after ? after.toString('utf8').split('\n') : [];
  if (a.length && a[a.length - 1] === '') a.pop();
  if (b.length && b[b.length - 1] === '') b.pop();
  const head = [`diff --git a/${path} b/${path}`];
  if (!before) head.push('new file mode 100644');
  if (!after) head.push('deleted file mode 100644');
  head.push(before ? `--- a/${path}` : '--- /dev/null', after ? `+++ b/${path}` : '+++ /dev/null');
  head.push(`@@ -${a.length ? 1 : 0},${a.length} +${b.length ? 1 : 0},${b.length} @@`);
  return [...head, ...a.map((l) => `-${l}`), ...b.map((l) => `+${l}`)].join('\n') + '\n';
}

/** A whole-file unified diff between two trees (each changed file as one hunk). */
export function treeDiff(before: Map<string, Buffer>, after: Map<string, Buffer>): string {
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
  return paths
    .filter((p) => !(before.get(p) && after.get(p) && before.get(p)!.equals(after.get(p)!)))
    .map((p) => fileDiff(p, before.get(p), after.get(p)))
    .join('');
}

export function formatPatch(commit: Commit, author: User, diff: string): string {
  return [
    `From ${commit.sha} Mon Sep 17 00:00:00 2001`,
    `From: ${author.fullName || author.login} <${author.email}>`,
    `Date: ${new Date(commit.date).toUTCString().replace('GMT', '+0000')}`,
    `Subject: [PATCH] ${commit.message}`,
    '',
    '---',
    diff,
  ].join('\n');
}

function tarHeader(name: string, size: number, mtime: number): Buffer {
  const h = Buffer.alloc(512);
  h.write(name.slice(0, 100), 0, 'utf8');
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(size.toString(8).padStart(11, '0') + '\0', 124);
  h.write(mtime.toString(8).padStart(11, '0') + '\0', 136);
  h.write('        ', 148);
  h.write('0', 156);
  h.write('ustar\0' + '00', 257);
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
  return h;
}

export function tarGz(prefix: string, tree: Map<string, Buffer>, date: string): Buffer {
  const mtime = Math.floor(new Date(date).getTime() / 1000);
  const parts: Buffer[] = [];
  for (const [path, data] of [...tree.entries()].sort()) {
    parts.push(
      tarHeader(`${prefix}/${path}`, data.length, mtime),
      data,
      Buffer.alloc((512 - (data.length % 512)) % 512),
    );
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts));
}

function crc32(buf: Buffer): number {
  const native = (zlib as unknown as { crc32?: (b: Buffer) => number }).crc32;
  if (native) return native(buf);
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

/** A deflated zip archive, as `git archive --format=zip` writes it (stored when deflate does not help). */
export function zip(prefix: string, tree: Map<string, Buffer>): Buffer {
  const local: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [path, data] of [...tree.entries()].sort()) {
    const name = Buffer.from(`${prefix}/${path}`);
    const crc = crc32(data);
    const deflated = zlib.deflateRawSync(data);
    const method = deflated.length < data.length ? 8 : 0;
    const stored = method === 8 ? deflated : data;
    const lh = Buffer.alloc(30);
    lh.writeUInt32LE(0x04034b50, 0);
    lh.writeUInt16LE(20, 4);
    lh.writeUInt16LE(method, 8);
    lh.writeUInt32LE(crc, 14);
    lh.writeUInt32LE(stored.length, 18);
    lh.writeUInt32LE(data.length, 22);
    lh.writeUInt16LE(name.length, 26);
    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0);
    ch.writeUInt16LE(20, 4);
    ch.writeUInt16LE(20, 6);
    ch.writeUInt16LE(method, 10);
    ch.writeUInt32LE(crc, 16);
    ch.writeUInt32LE(stored.length, 20);
    ch.writeUInt32LE(data.length, 24);
    ch.writeUInt16LE(name.length, 28);
    ch.writeUInt32LE(offset, 42);
    local.push(lh, name, stored);
    central.push(ch, name);
    offset += lh.length + name.length + stored.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(tree.size, 8);
  end.writeUInt16LE(tree.size, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...local, cd, end]);
}
