import { CpuTurns, type Schedule } from './cpu-turns';
import { testToolService, tokenCaller } from '../testing/tool-service-fixture';

/** A schedule the test runs by hand: each step is one loop iteration's check phase. */
function manualSchedule(): { schedule: Schedule; pending: Array<() => void>; step(): Promise<void> } {
  const pending: Array<() => void> = [];
  return {
    schedule: (run) => pending.push(run),
    pending,
    async step() {
      pending.shift()?.();
      for (let i = 0; i < 5; i++) await Promise.resolve(); // the continuation's microtasks
    },
  };
}

const busy = (ms: number): void => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe('CpuTurns', () => {
  it('grants one turn per scheduled step, first come first served', async () => {
    const loop = manualSchedule();
    const turns = new CpuTurns(loop.schedule);
    const ran: number[] = [];
    for (const n of [1, 2, 3]) void turns.turn().then(() => ran.push(n));
    expect(loop.pending).toHaveLength(1); // one pump, however many wait
    expect(turns.queued).toBe(3);
    await loop.step();
    expect(ran).toEqual([1]);
    expect(loop.pending).toHaveLength(1); // the next turn waits for the next step
    await loop.step();
    await loop.step();
    expect(ran).toEqual([1, 2, 3]);
    expect(loop.pending).toHaveLength(0);
    // Idle again: a new caller starts a new pump.
    void turns.turn().then(() => ran.push(4));
    expect(loop.pending).toHaveLength(1);
    await loop.step();
    expect(ran).toEqual([1, 2, 3, 4]);
  });

  it("on Node's loop, a timer that falls due runs between two calls' work, not after all of them", async () => {
    const order: string[] = [];
    const run = async (schedule: Schedule | null): Promise<string[]> => {
      order.length = 0;
      const turns = schedule ? new CpuTurns(schedule) : null;
      let timerSet = false;
      const work = Array.from({ length: 4 }, async (_, i) => {
        if (turns) await turns.turn();
        else await Promise.resolve();
        if (!timerSet) {
          timerSet = true;
          setTimeout(() => order.push('timer'), 1);
        }
        busy(5); // the synchronous part of a call, longer than the timer's delay
        order.push(`call ${i}`);
      });
      await Promise.all(work);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return [...order];
    };
    // Without turns the four calls run back to back and the timer waits for all of them.
    expect(await run(null)).toEqual(['call 0', 'call 1', 'call 2', 'call 3', 'timer']);
    // With turns the loop runs its timers (and polls sockets) after the first call's work.
    expect(await run((fn) => setImmediate(fn))).toEqual(['call 0', 'timer', 'call 1', 'call 2', 'call 3']);
  });
});

describe('the executor takes a turn before the work on a Gitea answer', () => {
  const caller = tokenCaller();

  it('does not decode, scan or bound the answer until its turn comes', async () => {
    const loop = manualSchedule();
    const turns = new CpuTurns(loop.schedule);
    const t = testToolService({ options: { turns }, reply: () => ({ json: { full_name: 'acme/widgets' } }) });
    let done = false;
    const call = t.callAs(caller, 'repoGet', { owner: 'acme', repo: 'widgets' }).then((r) => {
      done = true;
      return r;
    });
    for (let i = 0; i < 20 && turns.queued === 0; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(t.sent).toHaveLength(1); // Gitea was asked...
    expect(turns.queued).toBe(1); // ...and the answer waits for its turn
    expect(done).toBe(false);
    expect(t.audits).toHaveLength(0);
    await loop.step();
    const result = await call;
    expect(result.json.data).toEqual({ full_name: 'acme/widgets' });
    expect(t.audits).toHaveLength(1);
  });
});
