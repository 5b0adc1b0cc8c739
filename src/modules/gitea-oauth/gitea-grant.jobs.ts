// The two background jobs of Gitea grants, as repeatable jobs on the JobQueue: with BullMQ a job
// scheduler in Redis makes one run per period across all replicas (whichever worker takes it);
// the in-process queue runs them in this process. "reconcile" checks every person on Gitea
// (lifecycle: suspended, prohibit-login, deleted), re-encrypts rows of a previous key and purges
// stale sign-in states; "refresh" renews access tokens that expire soon.
import type { GiteaGrantService, ReconcileSummary } from '../../core/gitea-oauth/grant-service';
import type { JobQueue } from '../../infra/queue/job-queue';

export const GITEA_GRANTS_QUEUE = 'gitea-grants';

export type GrantJobData = { task: 'reconcile' | 'refresh' };

export type GrantJobsOptions = {
  queue: JobQueue;
  grants: GiteaGrantService;
  purgeStates: () => Promise<number>;
  reconcileEveryMs: number;
  refreshEveryMs: number;
  log: (message: string, fields: Record<string, unknown>) => void;
};

export class GiteaGrantJobs {
  /** Each finished run, for tests and metrics. */
  readonly runs: Array<{ task: GrantJobData['task']; at: number; result: unknown }> = [];
  private listeners: Array<(task: GrantJobData['task'], result: unknown) => void> = [];

  constructor(private readonly options: GrantJobsOptions) {}

  onRun(listener: (task: GrantJobData['task'], result: unknown) => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  async start(): Promise<void> {
    const { queue } = this.options;
    await queue.process<GrantJobData>(
      GITEA_GRANTS_QUEUE,
      async (job) => {
        await this.run(job.data.task);
      },
      {
        onFailed: (job, error) =>
          this.options.log('gitea grant job failed', { task: job.data.task, err: error.message }),
      },
    );
    await queue.repeat<GrantJobData>(GITEA_GRANTS_QUEUE, 'reconcile', this.options.reconcileEveryMs, {
      task: 'reconcile',
    });
    await queue.repeat<GrantJobData>(GITEA_GRANTS_QUEUE, 'refresh', this.options.refreshEveryMs, {
      task: 'refresh',
    });
  }

  async run(task: GrantJobData['task']): Promise<unknown> {
    let result: unknown;
    if (task === 'reconcile') {
      const summary: ReconcileSummary = await this.options.grants.reconcile();
      const reencrypted = await this.options.grants.reencrypt();
      const purged = await this.options.purgeStates();
      result = { ...summary, reencrypted, purgedStates: purged };
    } else {
      result = await this.options.grants.refreshExpiring();
    }
    this.runs.push({ task, at: Date.now(), result });
    if (this.runs.length > 100) this.runs.shift();
    this.options.log('gitea grant job done', { task, ...(result as object) });
    for (const listener of this.listeners) listener(task, result);
    return result;
  }
}
