// Actions workflow runs, their jobs and the jobs' logs, as Gitea 1.27 serves them
// (routers/api/v1/repo/action.go, routers/common/actions.go, services/convert/convert.go):
//  - GET .../actions/jobs/{job_id} and .../actions/runs/{run}/jobs: ToActionWorkflowJob;
//  - GET .../actions/jobs/{job_id}/logs: the task's log file through ctx.ServeContent, which is Go's
//    http.ServeContent over a ReadSeeker: text/plain; charset=utf-8, an attachment, Accept-Ranges,
//    and Range honoured (one range: 206 + Content-Range; several: multipart/byteranges; a start at
//    or past the end: 416 with "Content-Range: bytes */size"; a malformed header: 416 without).
import { apiUrl, loadRepo, type Ctx, type Handler } from './context';
import { HttpError, linkHeader, pageInfo, type Reply } from './http.util';
import { nowIso, type Repo, type SimState } from './state';

export type ActionJob = {
  id: number;
  name: string;
  status: 'success' | 'failure' | 'running' | 'waiting';
  log: Buffer;
  steps: string[];
};

export type ActionRun = {
  id: number;
  /** The run's number in its repository (what the web UI shows). */
  index: number;
  repoId: number;
  workflowId: string;
  commitSha: string;
  ref: string;
  created: string;
  jobs: ActionJob[];
};

const STATUS: Record<ActionJob['status'], [string, string]> = {
  success: ['completed', 'success'],
  failure: ['completed', 'failure'],
  running: ['in_progress', ''],
  waiting: ['queued', ''],
};

export class ActionRunStore {
  readonly runs: ActionRun[] = [];
  private nextRunId = 1;
  private nextJobId = 1;

  constructor(private readonly state: SimState) {}

  /** A finished or running workflow run with its jobs; ids come from their own sequences. */
  add(repo: Repo, workflowId: string, commitSha: string, jobs: Array<Omit<ActionJob, 'id'>>): ActionRun {
    const run: ActionRun = {
      id: this.nextRunId++,
      index: this.runs.filter((r) => r.repoId === repo.id).length + 1,
      repoId: repo.id,
      workflowId,
      commitSha,
      ref: `refs/heads/${repo.defaultBranch}`,
      created: nowIso(this.state),
      jobs: jobs.map((j) => ({ ...j, id: this.nextJobId++ })),
    };
    this.runs.push(run);
    return run;
  }

  private findJob(repoId: number, rawId: string | undefined): { run: ActionRun; job: ActionJob } {
    const id = Number(rawId);
    for (const run of this.runs) {
      if (run.repoId !== repoId) continue;
      const job = run.jobs.find((j) => j.id === id);
      if (job) return { run, job };
    }
    throw new HttpError(404, 'job not found');
  }

  private jobJson(
    ctx: Ctx,
    owner: string,
    repo: Repo,
    run: ActionRun,
    job: ActionJob,
  ): Record<string, unknown> {
    const repoApi = `${apiUrl(ctx.world)}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo.name)}`;
    const runHtml = `${ctx.world.baseUrl}/${encodeURIComponent(owner)}/${encodeURIComponent(repo.name)}/actions/runs/${run.index}`;
    const [status, conclusion] = STATUS[job.status];
    const done = status === 'completed';
    return {
      id: job.id,
      url: `${repoApi}/actions/jobs/${job.id}`,
      html_url: `${runHtml}/jobs/${job.id}`,
      run_id: run.id,
      run_url: `${repoApi}/actions/runs/${run.id}`,
      name: job.name,
      labels: ['ubuntu-latest'],
      run_attempt: 1,
      head_sha: run.commitSha,
      head_branch: run.ref.replace(/^refs\/heads\//, ''),
      status,
      conclusion,
      runner_id: 1,
      runner_name: 'runner-1',
      steps: job.steps.map((name, i) => ({
        name,
        number: i,
        status,
        conclusion,
        started_at: run.created,
        completed_at: done ? run.created : '0001-01-01T00:00:00Z',
      })),
      created_at: run.created,
      started_at: run.created,
      completed_at: done ? run.created : '0001-01-01T00:00:00Z',
    };
  }

  readonly handlers: Record<string, Handler> = {
    getWorkflowJob: (ctx) => {
      const { repo, owner } = loadRepo(ctx);
      const { run, job } = this.findJob(repo.id, ctx.params.job_id);
      return { status: 200, json: this.jobJson(ctx, owner.login, repo, run, job) };
    },
    listWorkflowRunJobs: (ctx) => {
      const { repo, owner } = loadRepo(ctx);
      const run = this.runs.find((r) => r.repoId === repo.id && r.id === Number(ctx.params.run));
      if (!run) throw new HttpError(404, 'run not found');
      const p = pageInfo(ctx.query);
      const all = run.jobs.filter(
        (j) => !ctx.query.get('status') || STATUS[j.status].includes(ctx.query.get('status')!),
      );
      const jobs = all.slice((p.page - 1) * p.limit, p.page * p.limit);
      const link = linkHeader(apiUrl(ctx.world), ctx.rawPath, ctx.query, all.length, p);
      return {
        status: 200,
        json: {
          jobs: jobs.map((j) => this.jobJson(ctx, owner.login, repo, run, j)),
          total_count: all.length,
        },
        headers: {
          'X-Total-Count': String(all.length),
          'Access-Control-Expose-Headers': 'X-Total-Count, Link',
          ...(link ? { Link: link } : {}),
        },
      };
    },
    downloadActionsRunJobLogs: (ctx) => {
      const { repo } = loadRepo(ctx);
      const { run, job } = this.findJob(repo.id, ctx.params.job_id);
      if (job.status === 'waiting') throw new HttpError(404, 'job not started');
      const workflow = run.workflowId.includes('.')
        ? run.workflowId.slice(0, run.workflowId.indexOf('.'))
        : run.workflowId;
      const filename = `${workflow}-${job.name}-${job.id}.log`;
      return serveContent(job.log, String(ctx.req.headers.range ?? ''), {
        'Content-Disposition': `attachment; filename="${filename}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
        'Access-Control-Expose-Headers': 'Content-Disposition',
      });
    },
  };
}

const TEXT = 'text/plain; charset=utf-8';

/** Go's http.ServeContent for a ReadSeeker of known size, with the headers Gitea set before it. */
export function serveContent(data: Buffer, rangeHeader: string, headers: Record<string, string>): Reply {
  const base = { ...headers, 'Accept-Ranges': 'bytes' };
  if (rangeHeader === '') return { status: 200, raw: data, contentType: TEXT, headers: base };
  const ranges = parseRange(rangeHeader, data.length);
  if (ranges === 'invalid') return { status: 416, raw: Buffer.from('invalid range\n'), contentType: TEXT };
  if (ranges === 'no-overlap')
    return {
      status: 416,
      raw: Buffer.from('invalid range: failed to overlap\n'),
      contentType: TEXT,
      headers: { 'Content-Range': `bytes */${data.length}` },
    };
  // More bytes asked for than the file has (overlapping ranges): Go ignores the Range.
  const asked = ranges.reduce((n, [s, e]) => n + e - s, 0);
  if (ranges.length === 0 || asked > data.length)
    return { status: 200, raw: data, contentType: TEXT, headers: base };
  if (ranges.length === 1) {
    const [start, end] = ranges[0]!;
    return {
      status: 206,
      raw: data.subarray(start, end),
      contentType: TEXT,
      headers: { ...base, 'Content-Range': `bytes ${start}-${end - 1}/${data.length}` },
    };
  }
  const boundary = 'aegis3d6b6a416f9b53e416fb338ccd';
  const parts: Buffer[] = [];
  for (const [start, end] of ranges) {
    parts.push(
      Buffer.from(
        `\r\n--${boundary}\r\nContent-Range: bytes ${start}-${end - 1}/${data.length}\r\nContent-Type: ${TEXT}\r\n\r\n`,
      ),
      data.subarray(start, end),
    );
  }
  parts.push(Buffer.from(`\r\n--${boundary}--\r\n`));
  return {
    status: 206,
    raw: Buffer.concat(parts),
    contentType: `multipart/byteranges; boundary=${boundary}`,
    headers: base,
  };
}

/** net/http's parseRange: [start, end) pairs, or why the header is refused. */
function parseRange(header: string, size: number): Array<[number, number]> | 'invalid' | 'no-overlap' {
  if (!header.startsWith('bytes=')) return 'invalid';
  const out: Array<[number, number]> = [];
  let noOverlap = false;
  for (const raw of header.slice('bytes='.length).split(',')) {
    const spec = raw.trim();
    if (spec === '') continue;
    const dash = spec.indexOf('-');
    if (dash < 0) return 'invalid';
    const startText = spec.slice(0, dash).trim();
    const endText = spec.slice(dash + 1).trim();
    const int = (t: string): number => (/^\d+$/.test(t) ? Number(t) : NaN);
    if (startText === '') {
      // A suffix: the last N bytes.
      if (endText === '' || endText.startsWith('-')) return 'invalid';
      let n = int(endText);
      if (!Number.isFinite(n) || n < 0) return 'invalid';
      if (n > size) n = size;
      if (n === 0) {
        noOverlap = true;
        continue;
      }
      out.push([size - n, size]);
      continue;
    }
    const start = int(startText);
    if (!Number.isFinite(start)) return 'invalid';
    if (start >= size) {
      noOverlap = true;
      continue;
    }
    if (endText === '') {
      out.push([start, size]);
      continue;
    }
    let end = int(endText);
    if (!Number.isFinite(end) || start > end) return 'invalid';
    if (end >= size) end = size - 1;
    out.push([start, end + 1]);
  }
  if (noOverlap && out.length === 0) return 'no-overlap';
  return out;
}
