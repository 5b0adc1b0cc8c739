// A realistic audit entry for the audit suites; each call gets a fresh event id.
import type { AuditEntry } from '../../../src/core/ports';

let counter = 0;
export function sampleEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  counter += 1;
  return {
    eventId: `evt-${process.pid}-${counter}`,
    time: new Date(),
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
    durationMs: 1.234,
    resultBytes: 321,
    redactions: 0,
    masks: 0,
    blocked: false,
    arguments: { owner: 'acme', repo: 'widgets', deep: { list: [1, 'two', null, { k: true }] } },
    ...overrides,
  };
}
