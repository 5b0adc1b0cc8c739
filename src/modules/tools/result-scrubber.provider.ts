// The ResultScrubber of the secrets module (exact redaction, pattern masking, block mode, binary and
// archive scanning, write-back guard), behind the executor's port so the core call path does not
// import it directly.
import * as secrets from '../../core/secrets';
import type { ResultScrubber } from '../../core/executor/tool-service';
import type { AppConfig } from '../../config/app-config';
import { ScrubWorkerPool } from '../../infra/secrets/scrub-worker-pool';

// Pools started by resolveResultScrubber, closed at shutdown (closeScrubWorkers).
const pools = new Set<ScrubWorkerPool>();

/** Default SECRET_SCAN_WORKER_MIN_BYTES: a 256 KiB body takes tens of ms to scan on a busy core. */
export const DEFAULT_SCAN_WORKER_MIN_BYTES = 262_144;

export async function closeScrubWorkers(): Promise<void> {
  const all = [...pools];
  pools.clear();
  await Promise.all(all.map((p) => p.close()));
}

/** Bytes the secret pass over a result reads: the body's size, an archive's expanded size. */
export function scanWorkBytes(
  options: { bytes?: number; binary?: boolean; body?: Uint8Array } | undefined,
  containers: secrets.ContainerPolicy,
): number {
  const bytes = options?.bytes ?? 0;
  if (!options?.binary || !options.body || containers.mode !== 'scan') return bytes;
  return Math.max(bytes, secrets.containerWorkBytes(options.body, containers.maxBytes));
}

/** Threads the scan worker pools have started (tests, metrics). */
export function scrubWorkerThreads(): number {
  let n = 0;
  for (const p of pools) n += p.threads;
  return n;
}

export function resolveResultScrubber(config?: Pick<AppConfig, 'secrets'>): ResultScrubber {
  const s = config?.secrets;
  const containers: secrets.ContainerPolicy = {
    mode: s?.scanArchives ?? secrets.DEFAULT_CONTAINER_POLICY.mode,
    maxBytes: s?.archiveMaxBytes ?? secrets.DEFAULT_CONTAINER_POLICY.maxBytes,
    maxMembers: s?.archiveMaxMembers ?? secrets.DEFAULT_CONTAINER_POLICY.maxMembers,
  };
  const pool = new ScrubWorkerPool({
    threads: s?.scanWorkers ?? 1,
    minBytes: s?.scanWorkerMinBytes ?? DEFAULT_SCAN_WORKER_MIN_BYTES,
    // Said, not swallowed; only the message's first line (a late answer's text stays out of logs).
    onError: (err) => process.emitWarning(`scan worker pool: ${err.message.split('\n')[0]!.slice(0, 120)}`),
  });
  pools.add(pool);
  return {
    collectBodySecrets: (body, operationId) => secrets.collectBodySecrets(body, operationId),
    scrubResult: (value, ctx) => secrets.scrubResult(value, { ...ctx, containers }),
    // Large results are scanned in a worker thread, so the event loop stays free; the call's
    // deadline aborts the scan there. Small ones (almost all) stay here: a copy to a thread costs more.
    // A binary body counts by what its scan reads: an archive by its expanded size (read from its
    // headers), so a small zip of large members is not scanned on the event loop.
    scrubResultAsync: (value, ctx, options) =>
      pool.wants(scanWorkBytes(options, containers))
        ? pool.scrub(value, { ...ctx, containers }, options?.signal)
        : secrets.scrubResultAsync(value, { ...ctx, containers }),
    // A large Gitea body is finished whole in the worker (decoding, shaping, both layers, bounds,
    // serialisation), so none of its per-byte work runs on the event loop.
    finishOffLoop: (task, signal) =>
      pool.wants(task.input.response.body.length) ? pool.finish(task, containers, signal) : null,
    findMaskMarker: (body, operationId) => secrets.findMaskMarker(body, operationId),
    CREDENTIAL_ISSUING_OPERATIONS: secrets.CREDENTIAL_ISSUING_OPERATIONS,
  };
}
