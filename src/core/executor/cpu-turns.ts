// Under load the CPU-heavy part of many calls lands in one event-loop phase: 32 Gitea answers
// become readable together, and each is decoded, shaped, scanned, bounded and serialised in turn
// before the loop reads any other socket, so a /healthz probe (or a console page) arriving then
// waits behind all of them: its latency grows with the number of calls in flight times the CPU of
// one (issue 18). CpuTurns hands out one turn per loop iteration: a call waits for its turn before
// its heavy part, and between two turns the loop polls the sockets, so light requests are answered
// within about one call's work. Turns are FIFO, so calls keep their order; alone, a call waits one
// iteration (microseconds).
export type Schedule = (run: () => void) => void;

export class CpuTurns {
  private readonly waiting: Array<() => void> = [];
  private pumping = false;

  /** `schedule` runs a callback on the next loop iteration's check phase (Node: setImmediate). */
  constructor(private readonly schedule: Schedule) {}

  /** Resolves when it is this caller's turn; its continuation runs before the loop polls again. */
  turn(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      if (!this.pumping) {
        this.pumping = true;
        this.schedule(this.pump);
      }
    });
  }

  /** Calls waiting for a turn. */
  get queued(): number {
    return this.waiting.length;
  }

  // One turn per callback: the continuation of the resolved call runs in the microtask checkpoint
  // right after this callback, and the next pump, scheduled from inside the check phase, runs only
  // after the loop has polled for I/O again.
  private readonly pump = (): void => {
    this.waiting.shift()?.();
    if (this.waiting.length) this.schedule(this.pump);
    else this.pumping = false;
  };
}
