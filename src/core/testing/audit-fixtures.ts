// A realistic audit entry (a read of acme/widgets by alice) for the audit specs and suites; each
// caller overrides what its test is about (ids, times, counts, arguments).
import type { AuditEntry } from '../ports';

export function sampleAuditEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    eventId: 'evt-1',
    time: new Date(0),
    login: 'alice',
    mode: 'oauth',
    sudo: null,
    clientName: 'test-client',
    clientVersion: '1.2.3',
    tool: 'repo_get',
    operationId: 'repoGet',
    org: 'acme',
    repo: 'widgets',
    method: 'GET',
    path: '/repos/acme/widgets',
    status: 200,
    kind: null,
    durationMs: 1,
    resultBytes: 10,
    redactions: 0,
    masks: 0,
    blocked: false,
    arguments: { owner: 'acme' },
    ...overrides,
  };
}
