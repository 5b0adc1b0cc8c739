// The cursor codec's key as a KeyObject and the pooled placeholder nonces (issue 18's list path).
import { createHmac } from 'node:crypto';
import { CursorCodec, randomHex8 } from './cursor';

describe('randomHex8', () => {
  it('gives 16 hex characters, never the same across pool refills', () => {
    const seen = new Set<string>();
    // 4 KiB pools of 8-byte draws: 1,500 draws cross two refills.
    for (let i = 0; i < 1500; i++) {
      const hex = randomHex8();
      expect(hex).toMatch(/^[0-9a-f]{16}$/);
      seen.add(hex);
    }
    expect(seen.size).toBe(1500);
  });
});

describe('CursorCodec', () => {
  it('signs with HMAC-SHA256 of the derived key, as before the KeyObject', () => {
    const codec = new CursorCodec('a configured secret', () => 1_000);
    const cursor = codec.encode(
      { tool: 'issueListIssues', args: { page: 2 }, fields: null, format: 'json' },
      'sub',
    );
    const [body, mac] = cursor.split('.') as [string, string];
    const key = createHmac('sha256', 'aegis-cursor-v1').update('a configured secret').digest();
    expect(mac).toBe(createHmac('sha256', key).update(body).digest('base64url'));
    expect(codec.decode(cursor, 'sub')).toEqual({
      tool: 'issueListIssues',
      args: { page: 2 },
      fields: null,
      format: 'json',
    });
    // A codec built from the exported key accepts it (the worker thread's copy).
    expect(CursorCodec.fromKey(codec.exportKey(), () => 1_000).decode(cursor, 'sub').tool).toBe(
      'issueListIssues',
    );
  });
});
