// The task a scan worker runs (scrub-worker-pool.ts): the whole secret pass over one result, off the
// event loop. Input and output are copied between threads (structured clone).
import { scrubResultAsync, type ScrubContext, type ScrubResult } from '../../core/secrets';

export type ScrubTask = { value: unknown; ctx: ScrubContext };

async function scrubTask(task: ScrubTask): Promise<ScrubResult> {
  const r = await scrubResultAsync(task.value, task.ctx);
  delete r.json; // the caller serialises after its bounds; not worth copying back
  return r;
}

export default scrubTask;
