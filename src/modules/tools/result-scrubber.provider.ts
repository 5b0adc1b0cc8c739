// The ResultScrubber of the secrets module (exact redaction, pattern masking, block mode, write-back
// guard), behind the executor's port so the core call path does not import it directly.
import * as secrets from '../../core/secrets';
import type { ResultScrubber } from '../../core/executor/tool-service';

export function resolveResultScrubber(): ResultScrubber {
  return {
    collectBodySecrets: (body, operationId) => secrets.collectBodySecrets(body, operationId),
    scrubResult: (value, ctx) => secrets.scrubResult(value, ctx),
    findMaskMarker: (body, operationId) => secrets.findMaskMarker(body, operationId),
    CREDENTIAL_ISSUING_OPERATIONS: secrets.CREDENTIAL_ISSUING_OPERATIONS,
  };
}
