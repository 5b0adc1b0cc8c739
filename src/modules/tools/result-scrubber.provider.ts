// The ResultScrubber of the secrets module (exact redaction, pattern masking, block mode, binary and
// archive scanning, write-back guard), behind the executor's port so the core call path does not
// import it directly.
import * as secrets from '../../core/secrets';
import type { ResultScrubber } from '../../core/executor/tool-service';
import type { AppConfig } from '../../config/app-config';

export function resolveResultScrubber(config?: Pick<AppConfig, 'secrets'>): ResultScrubber {
  const s = config?.secrets;
  const containers: secrets.ContainerPolicy = {
    mode: s?.scanArchives ?? secrets.DEFAULT_CONTAINER_POLICY.mode,
    maxBytes: s?.archiveMaxBytes ?? secrets.DEFAULT_CONTAINER_POLICY.maxBytes,
    maxMembers: s?.archiveMaxMembers ?? secrets.DEFAULT_CONTAINER_POLICY.maxMembers,
  };
  return {
    collectBodySecrets: (body, operationId) => secrets.collectBodySecrets(body, operationId),
    scrubResult: (value, ctx) => secrets.scrubResult(value, { ...ctx, containers }),
    scrubResultAsync: (value, ctx) => secrets.scrubResultAsync(value, { ...ctx, containers }),
    findMaskMarker: (body, operationId) => secrets.findMaskMarker(body, operationId),
    CREDENTIAL_ISSUING_OPERATIONS: secrets.CREDENTIAL_ISSUING_OPERATIONS,
  };
}
