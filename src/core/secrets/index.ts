// Secret handling of results (ADR 0005 amendment, docs/adr/0007): exact redaction, pattern masking,
// block mode, credential-issuing operations and the write-back guard. Framework-free.
export {
  collectBodySecrets,
  BODY_SECRET_FIELDS,
  MAX_BODY_SECRET_DEPTH,
  MIN_BODY_SECRET_LENGTH,
} from './body-secrets.util';
export { scrubResult, scrubText, scrubJsonText, REDACTED } from './scrub.util';
export type { ScrubContext, ScrubResult, DetectionMode } from './scrub.util';
export { findMaskMarker } from './write-guard.util';
export { redactArguments } from './redact-arguments.util';
export {
  CREDENTIAL_ISSUING_OPERATIONS,
  ACTION_SECRET_WRITE_OPERATIONS,
  FILE_WRITE_OPERATIONS,
} from './secret-operations.util';
export { MASK_OPENER, formatMask, indexOfMaskMarker } from './mask-format.util';
export { scanText } from './pattern-scanner.util';
export { scrubResultAsync } from './scrub-async.util';
export { DEFAULT_CONTAINER_POLICY, EXACT_KIND, scanOpaque, driveSync, driveAsync } from './bytes-scan.util';
export type { ContainerPolicy, OpaqueVerdict } from './bytes-scan.util';
export { classifyBytes, decodeBytes, encodeText, decodeTextBody, charsetOf } from './text-encoding.util';
export type { ByteClass, TextEncodingName } from './text-encoding.util';
export { containerKind, containerWorkBytes } from './container.util';
