import { createHash } from 'node:crypto';
import type { AuditEntry } from '../ports';
import {
  AUDIT_REDACTED,
  AuditQueryError,
  GENESIS,
  canonicalJson,
  chainRecords,
  csvCell,
  csvHeader,
  decodeCursor,
  encodeCursor,
  fromJobEntry,
  parseAuditQuery,
  prepareAuditFields,
  toCsvRow,
  toJobEntry,
  toJsonLine,
  verifyChain,
  type AuditRecordFields,
} from './index';
import { sampleAuditEntry } from '../testing/audit-fixtures';

function entry(i: number, overrides: Partial<AuditEntry> = {}): AuditEntry {
  return sampleAuditEntry({
    eventId: `evt-${i}`,
    time: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
    clientName: 'claude',
    clientVersion: '1.0',
    durationMs: 12.6,
    resultBytes: 345,
    masks: 1,
    arguments: { owner: 'acme', repo: 'widgets', n: i },
    ...overrides,
  });
}

function fields(n: number): AuditRecordFields[] {
  return Array.from({ length: n }, (_, i) => prepareAuditFields(entry(i + 1)).fields);
}

describe('audit chain', () => {
  it('canonical JSON sorts keys at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('canonical JSON and the record hash are the texts stored chains were hashed with', () => {
    // The first implementation, kept here: a row written before a rewrite must still verify.
    const reference = (value: unknown): string =>
      value === null || typeof value !== 'object'
        ? (JSON.stringify(value) as string)
        : Array.isArray(value)
          ? `[${value.map((item) => reference(item)).join(',')}]`
          : `{${Object.keys(value)
              .sort()
              .map((key) => `${JSON.stringify(key)}:${reference((value as Record<string, unknown>)[key])}`)
              .join(',')}}`;
    // eslint-disable-next-line no-sparse-arrays
    const odd = [1, , undefined, null, 'x\u2028"\\', { b: [[]], a: {} }, [undefined, [null]]];
    const tricky = { z: odd, é: 'ünï', '': 0, nested: { list: odd, n: -0.5, big: 1e21 } };
    expect(canonicalJson(tricky as never)).toBe(reference(tricky));
    expect(canonicalJson([] as never)).toBe('[]');
    expect(canonicalJson({} as never)).toBe('{}');
    const [one] = fields(1);
    const record = { ...one!, arguments: { owner: 'acme', list: [1, 'two', { three: [3] }], ß: null } };
    const { records } = chainRecords(GENESIS, [record]);
    const ordered = [
      'aegis-audit-v1',
      '1',
      record.eventId,
      record.createdAt.toISOString(),
      record.login,
      record.mode,
      record.sudo,
      record.clientName,
      record.clientVersion,
      record.tool,
      record.operationId,
      record.org,
      record.repo,
      record.method,
      record.path,
      record.status,
      record.kind,
      record.durationMs,
      record.resultBytes,
      record.redactions,
      record.masks,
      record.blocked,
      record.arguments,
      GENESIS.hash,
    ];
    expect(records[0]?.hash).toBe(createHash('sha256').update(reference(ordered)).digest('hex'));
  });

  it('chains records densely from genesis and verifies them', () => {
    const { records, head } = chainRecords(GENESIS, fields(5));
    expect(records.map((r) => r.seq)).toEqual([1n, 2n, 3n, 4n, 5n]);
    expect(records[0]?.prevHash).toBe(GENESIS.hash);
    expect(records[1]?.prevHash).toBe(records[0]?.hash);
    expect(head).toEqual({ seq: 5n, hash: records[4]?.hash });
    const result = verifyChain(records, GENESIS, head);
    expect(result).toMatchObject({ ok: true, checked: 5, firstBreak: null });
  });

  it('continues a chain across batches exactly as one batch would', () => {
    const all = fields(6);
    const one = chainRecords(GENESIS, all);
    const first = chainRecords(GENESIS, all.slice(0, 2));
    const second = chainRecords(first.head, all.slice(2));
    expect([...first.records, ...second.records].map((r) => r.hash)).toEqual(one.records.map((r) => r.hash));
  });

  it('detects an altered field at that row', () => {
    const { records, head } = chainRecords(GENESIS, fields(5));
    records[2] = { ...records[2]!, login: 'mallory' };
    const result = verifyChain(records, GENESIS, head);
    expect(result.ok).toBe(false);
    expect(result.firstBreak).toMatchObject({ reason: 'hash_mismatch', seq: 3n, eventId: 'evt-3' });
    expect(result.checked).toBe(2);
  });

  it('detects altered arguments but not a key reordering (jsonb reorders keys)', () => {
    const { records, head } = chainRecords(GENESIS, fields(3));
    const reordered = records.map((r) => ({
      ...r,
      arguments: Object.fromEntries(Object.entries(r.arguments as object).reverse()),
    }));
    expect(verifyChain(reordered, GENESIS, head).ok).toBe(true);
    const altered = records.map((r, i) => (i === 1 ? { ...r, arguments: { owner: 'acme' } } : r));
    expect(verifyChain(altered, GENESIS, head).firstBreak?.reason).toBe('hash_mismatch');
  });

  it('detects a rehashed row through the next link', () => {
    const { records, head } = chainRecords(GENESIS, fields(4));
    const forged = chainRecords({ seq: 1n, hash: records[0]!.hash }, [
      { ...records[1]!, tool: 'repo_delete' },
    ]).records[0]!;
    records[1] = forged;
    const result = verifyChain(records, GENESIS, head);
    expect(result.firstBreak).toMatchObject({ reason: 'prev_hash_mismatch', seq: 3n });
  });

  it('detects a deleted row as a seq gap, and a deleted tail against the head', () => {
    const { records, head } = chainRecords(GENESIS, fields(5));
    const gap = verifyChain([records[0]!, records[1]!, records[3]!, records[4]!], GENESIS, head);
    expect(gap.firstBreak).toMatchObject({ reason: 'missing_records', seq: 3n });
    const tail = verifyChain(records.slice(0, 3), GENESIS, head);
    expect(tail.firstBreak).toMatchObject({ reason: 'missing_records', seq: 4n });
    const noHead = verifyChain(records.slice(0, 3), GENESIS);
    expect(noHead.ok).toBe(true);
  });

  it('detects a forged head and out-of-order rows', () => {
    const { records, head } = chainRecords(GENESIS, fields(3));
    expect(verifyChain(records, GENESIS, { ...head, hash: 'f'.repeat(64) }).firstBreak?.reason).toBe(
      'head_mismatch',
    );
    expect(verifyChain([records[0]!, records[0]!], GENESIS).firstBreak?.reason).toBe('out_of_order');
  });

  it('verifies from a pruning checkpoint and rejects a wrong one', () => {
    const { records, head } = chainRecords(GENESIS, fields(6));
    const checkpoint = { seq: 3n, hash: records[2]!.hash };
    expect(verifyChain(records.slice(3), checkpoint, head)).toMatchObject({ ok: true, checked: 3 });
    expect(verifyChain(records.slice(3), GENESIS, head).firstBreak?.reason).toBe('missing_records');
    expect(verifyChain(records.slice(3), { seq: 3n, hash: GENESIS.hash }, head).firstBreak?.reason).toBe(
      'prev_hash_mismatch',
    );
  });
});

describe('prepareAuditFields', () => {
  it('scrubs known secrets from every column and from argument keys and values', () => {
    const secret = 'ghp_abcdef0123456789SECRET';
    const { fields: f, scrubbed } = prepareAuditFields(
      entry(1, {
        path: `/repos/acme/x?token=${secret}`,
        clientName: `agent ${secret}`,
        kind: secret,
        arguments: { [secret]: 1, nested: [{ body: `Bearer ${secret}` }] },
      }),
      { exactSecrets: [secret, 'abc'] },
    );
    expect(JSON.stringify({ ...f, createdAt: 0 })).not.toContain(secret);
    expect(f.path).toBe(`/repos/acme/x?token=${AUDIT_REDACTED}`);
    expect(f.arguments).toEqual({ [AUDIT_REDACTED]: 1, nested: [{ body: `Bearer ${AUDIT_REDACTED}` }] });
    expect(scrubbed).toBe(5);
    // too-short values are not treated as secrets (would shred ordinary text)
    expect(f.repo).toBe('widgets');
  });

  it('normalises values that jsonb would change or reject', () => {
    const cyclic: Record<string, unknown> = {
      a: 'x\u0000y',
      big: 10n,
      nan: NaN,
      neg: -0,
      u: undefined,
      d: new Date(0),
    };
    cyclic.self = cyclic;
    const { fields: f } = prepareAuditFields(
      entry(1, { arguments: cyclic, durationMs: 3.70000001, status: null, tool: 'to\u0000ol' }),
    );
    expect(f.arguments).toEqual({
      a: 'xy',
      big: '10',
      nan: null,
      neg: 0,
      d: '1970-01-01T00:00:00.000Z',
      self: '[circular]',
    });
    expect(f.durationMs).toBe(3.7);
    expect(f.tool).toBe('tool');
    expect(f.status).toBeNull();
  });

  it('replaces lone surrogates (not storable as UTF-8) in columns, argument keys and values', () => {
    const { fields: f } = prepareAuditFields(
      entry(1, { path: '/a\ud800b', arguments: { ['k\udc00']: 'v\ud83d', ok: 'fine \ud83d\ude00' } }),
    );
    expect(f.path).toBe('/a\ufffdb');
    expect(f.arguments).toEqual({ ['k\ufffd']: 'v\ufffd', ok: 'fine \ud83d\ude00' });
  });

  it('cuts oversized arguments value by value: every key and every short value stays', () => {
    const args = {
      owner: 'o',
      repo: 'r',
      title: 'short title',
      body: { content: 'x'.repeat(200_000), message: 'm' },
    };
    const { fields: f } = prepareAuditFields(entry(1, { arguments: args }), { maxArgumentChars: 1000 });
    const a = f.arguments as any;
    expect(JSON.stringify(a).length).toBeLessThanOrEqual(1000);
    expect(a).toMatchObject({ owner: 'o', repo: 'r', title: 'short title', body: { message: 'm' } });
    expect(a.body.content).toMatch(/^x+… \[cut: 200000 chars\]$/);
    expect(a.body.content.length).toBeGreaterThan(500);
  });

  it('cuts the long values evenly, so padding one field does not hide another long one', () => {
    const args = { pad: 'p'.repeat(500_000), description: 'd'.repeat(300) + 'END', note: 'n'.repeat(20) };
    const { fields: f } = prepareAuditFields(entry(1, { arguments: args }), { maxArgumentChars: 2000 });
    const a = f.arguments as any;
    expect(Object.keys(a)).toEqual(['pad', 'description', 'note']);
    expect(a.note).toBe('n'.repeat(20));
    expect(a.description).toBe('d'.repeat(300) + 'END');
    expect(a.pad).toMatch(/\[cut: 500000 chars\]$/);
  });

  it('cuts long lists item-wise when their strings are already short, and keeps a marker only for the hopeless case', () => {
    const many = Array.from({ length: 50_000 }, (_, i) => i);
    const { fields: f } = prepareAuditFields(entry(1, { arguments: { ids: many, repo: 'r' } }), {
      maxArgumentChars: 1000,
    });
    const a = f.arguments as any;
    expect(a.repo).toBe('r');
    expect(a.ids.at(-1)).toMatch(/^\[cut: \d+ more of 50000 items\]$/);
    expect(a.ids.slice(0, 3)).toEqual([0, 1, 2]);
    const keys = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`key${i}`, i]));
    const hopeless = prepareAuditFields(entry(1, { arguments: keys }), { maxArgumentChars: 1000 });
    expect(hopeless.fields.arguments).toEqual({ _truncated: true, _chars: JSON.stringify(keys).length });
  });

  it('round-trips through a queue job payload unchanged', () => {
    const f = prepareAuditFields(entry(7)).fields;
    expect(fromJobEntry(JSON.parse(JSON.stringify(toJobEntry(f))))).toEqual(f);
    expect(fromJobEntry({ eventId: 1 })).toBeNull();
    expect(fromJobEntry({ eventId: 'e', tool: 't', createdAt: 'nope' })).toBeNull();
  });
});

describe('audit query', () => {
  it('parses and validates filters', () => {
    const q = parseAuditQuery({ from: '2026-01-01T00:00:00Z', login: 'alice', limit: '50' });
    expect(q).toMatchObject({ login: 'alice', limit: 50, order: 'desc', org: null });
    expect(q.from?.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(() => parseAuditQuery({ limit: '0' })).toThrow(AuditQueryError);
    expect(() => parseAuditQuery({ limit: 5000 })).toThrow(AuditQueryError);
    expect(() => parseAuditQuery({ from: 'yesterday' })).toThrow(AuditQueryError);
    expect(() => parseAuditQuery({ from: '2026-02-01', to: '2026-01-01' })).toThrow(AuditQueryError);
    expect(() => parseAuditQuery({ login: ['a'] })).toThrow(AuditQueryError);
    expect(() => parseAuditQuery({ order: 'sideways' })).toThrow(AuditQueryError);
  });

  it('round-trips cursors and rejects forged ones', () => {
    expect(decodeCursor(encodeCursor(12345678901234n))).toEqual({ seq: 12345678901234n, order: 'desc' });
    expect(() => decodeCursor('not a cursor!')).toThrow(AuditQueryError);
    expect(() => decodeCursor(Buffer.from('d:-1').toString('base64url'))).toThrow(AuditQueryError);
    expect(() => parseAuditQuery({ cursor: encodeCursor(5n, 'asc') })).toThrow(/another order/);
  });
});

describe('audit export', () => {
  const { records } = chainRecords(GENESIS, [
    prepareAuditFields(
      entry(1, { path: '/repos/a,b/"c"', arguments: { body: '=HYPERLINK("x")', b: 1, a: 2 } }),
    ).fields,
  ]);

  it('writes JSON Lines with seq as a string', () => {
    const line = toJsonLine(records[0]!);
    expect(line.endsWith('\n')).toBe(true);
    expect(JSON.parse(line)).toMatchObject({
      seq: '1',
      event_id: 'evt-1',
      path: '/repos/a,b/"c"',
      hash: records[0]!.hash,
    });
  });

  it('writes RFC 4180 CSV and defuses formulas', () => {
    expect(csvHeader().startsWith('seq,event_id,created_at')).toBe(true);
    const row = toCsvRow(records[0]!);
    expect(row).toContain('"/repos/a,b/""c"""');
    expect(row).toContain('"{""a"":2,""b"":1,""body"":""=HYPERLINK(\\""x\\"")""}"');
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell(null)).toBe('');
    expect(row.endsWith('\r\n')).toBe(true);
  });
});
