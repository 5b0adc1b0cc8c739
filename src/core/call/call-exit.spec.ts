import { testOutcome, tokenCaller } from '../testing/tool-service-fixture';
import type { AuditEntry } from '../ports';
import { CallExit } from './call-exit';
import { auditEntryOf, NO_COUNTS, toolLabel, type ToolCallOutcome } from './tool-call-outcome';

const identity = tokenCaller({
  token: 't'.repeat(40),
  subject: 'token:alice',
  client: { name: 'c', version: '1' },
});

const outcome = (over: Partial<ToolCallOutcome> = {}): ToolCallOutcome =>
  testOutcome(identity, 'repoGet', {
    operationId: 'repoGet',
    org: 'acme',
    repo: 'w',
    method: 'GET',
    path: '/repos/acme/w',
    status: 200,
    startedAt: 1_000,
    durationMs: 5,
    counts: { ...NO_COUNTS, resultBytes: 2 },
    arguments: { owner: 'acme' },
    ...over,
  });

describe('auditEntryOf', () => {
  it("redacts the caller's token from the columns taken from what the caller sent (found by the fuzz run)", () => {
    const token = identity.token;
    const entry = auditEntryOf(
      outcome({ tool: `x${token}`, org: token, repo: `r-${token}`, path: `/repos/${token}/r-${token}` }),
      'id',
    );
    expect(JSON.stringify(entry)).not.toContain(token);
    expect(entry).toMatchObject({
      org: '[REDACTED]',
      repo: 'r-[REDACTED]',
      path: '/repos/[REDACTED]/r-[REDACTED]',
    });
  });
});

describe('CallExit', () => {
  it('writes one audit record per outcome and hands the same outcome to every observer, once', () => {
    const records: AuditEntry[] = [];
    const seen: ToolCallOutcome[] = [];
    const exit = new CallExit({
      audit: { record: (e) => records.push(e) },
      observers: [{ observe: (o) => seen.push(o) }],
      newEventId: () => 'id-1',
    });
    const done = outcome();
    exit.finish(done);
    exit.finish(done);
    expect(records).toHaveLength(1);
    expect(seen).toEqual([done]);
    expect(records[0]).toMatchObject({
      eventId: 'id-1',
      tool: 'repoGet',
      kind: null,
      status: 200,
      clientName: 'c',
    });
  });

  it('keeps going when the sink or an observer throws', () => {
    const warnings: string[] = [];
    const seen: ToolCallOutcome[] = [];
    const exit = new CallExit({
      audit: {
        record: () => {
          throw new Error('down');
        },
      },
      observers: [
        {
          observe: () => {
            throw new Error('boom');
          },
        },
        { observe: (o) => seen.push(o) },
      ],
      warn: (m) => warnings.push(m),
    });
    exit.finish(outcome());
    expect(seen).toHaveLength(1);
    expect(warnings).toEqual(['audit sink failed: down', 'outcome observer failed: boom']);
  });

  it('records error kinds and bounds the caller-chosen name; labels only catalogue names', () => {
    const long = outcome({ tool: 'x'.repeat(500).slice(0, 200), knownTool: null, kind: 'unknown_tool' });
    expect(auditEntryOf(long, 'e').kind).toBe('unknown_tool');
    expect(auditEntryOf(long, 'e').tool).toHaveLength(200);
    expect(toolLabel(long)).toBe('(unknown)');
    expect(toolLabel(outcome())).toBe('repoGet');
  });
});
