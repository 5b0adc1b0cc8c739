// A realistic audit entry for the audit suites; each call gets a fresh event id.
import type { AuditEntry } from '../../../src/core/ports';
import { sampleAuditEntry } from '../../../src/core/testing/audit-fixtures';

let counter = 0;
export function sampleEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  counter += 1;
  return sampleAuditEntry({
    eventId: `evt-${process.pid}-${counter}`,
    time: new Date(),
    durationMs: 1.234,
    resultBytes: 321,
    arguments: { owner: 'acme', repo: 'widgets', deep: { list: [1, 'two', null, { k: true }] } },
    ...overrides,
  });
}
