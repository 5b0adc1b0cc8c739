// The single exit of a tools/call: takes the outcome once and makes the audit record, then hands
// the same outcome to the observers (metrics, log line). Finishing an outcome twice is a no-op, so
// no path can write two records for one call.
import { randomUUID } from 'node:crypto';
import type { AuditSink } from '../ports';
import { auditEntryOf, type ToolCallOutcome } from './tool-call-outcome';

/** Something made from every finished outcome (metrics, the log line); must not throw. */
export interface OutcomeObserver {
  observe(outcome: ToolCallOutcome): void;
}

export type CallExitDeps = {
  audit: AuditSink;
  observers?: OutcomeObserver[];
  /** Unique id per call for the audit record; defaults to crypto.randomUUID. */
  newEventId?: () => string;
  warn?: (message: string) => void;
};

export class CallExit {
  private readonly finished = new WeakSet<ToolCallOutcome>();
  private readonly newEventId: () => string;

  constructor(private readonly deps: CallExitDeps) {
    this.newEventId = deps.newEventId ?? randomUUID;
  }

  finish(outcome: ToolCallOutcome): void {
    if (this.finished.has(outcome)) return;
    this.finished.add(outcome);
    try {
      const eventId = this.newEventId();
      outcome.auditEventId = eventId;
      this.deps.audit.record(auditEntryOf(outcome, eventId));
    } catch (error) {
      this.deps.warn?.(
        `audit sink failed: ${error instanceof Error ? error.message.slice(0, 200) : 'unknown'}`,
      );
    }
    for (const observer of this.deps.observers ?? []) {
      try {
        observer.observe(outcome);
      } catch (error) {
        this.deps.warn?.(
          `outcome observer failed: ${error instanceof Error ? error.message.slice(0, 200) : 'unknown'}`,
        );
      }
    }
  }
}
