// What stands in for a redacted value, everywhere: results, errors, audit records and log lines.
export const REDACTED = '[REDACTED]';
