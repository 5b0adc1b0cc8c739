// Injection tokens of the audit adapters (src/infra/audit).
export const AUDIT_QUEUE = Symbol('AUDIT_QUEUE'); // core AuditQueue: JobQueueAuditQueue on the service's JOB_QUEUE
export const AUDIT_REPOSITORY = Symbol('AUDIT_REPOSITORY'); // AuditRecordRepository: the audit chain in the database
