// The task a scan worker runs (scrub-worker-pool.ts), off the event loop: either the whole secret
// pass over one result (`value`, copied between threads), or the whole rest of a successful call of a
// large body (`finish`: decoding, shaping, both secret layers, bounds and serialisation, the body's
// bytes moved here without a copy), which answers with the result text.
import { scrubResultAsync, type ScrubContext, type ScrubResult } from '../../core/secrets';
import {
  finishOffLoopTask,
  type OffLoopSuccessTask,
  type SuccessOutput,
} from '../../core/executor/success-result';

export type ScrubTask =
  | { value: unknown; ctx: ScrubContext; finish?: undefined }
  | { finish: OffLoopSuccessTask; containers: ScrubContext['containers'] };

async function scrubTask(task: ScrubTask): Promise<ScrubResult | SuccessOutput> {
  if (task.finish) {
    const containers = task.containers;
    return finishOffLoopTask(task.finish, (value, ctx) =>
      scrubResultAsync(value, { ...ctx, ...(containers ? { containers } : {}) }),
    );
  }
  const r = await scrubResultAsync(task.value, task.ctx);
  delete r.json; // the caller serialises after its bounds; not worth copying back
  return r;
}

export default scrubTask;
