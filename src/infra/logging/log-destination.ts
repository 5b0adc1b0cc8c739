// The service's stdout log destination: buffered and asynchronous, so the line every tool call
// writes is appended to a buffer on the request path and reaches the file descriptor in one write
// per LOG_BUFFER_BYTES (or every LOG_FLUSH_MS), off the event loop. What is buffered is written
// synchronously when the process ends: on exit (process.exit, an uncaught exception, the event
// loop running dry) and, on SIGTERM/SIGINT, right before the signal Nest re-raises after closing the
// app would end the process (the shutdown lines are the last thing written).
import pino from 'pino';

/** A write of the buffer once it holds this much (sonic-boom's minLength). */
export const LOG_BUFFER_BYTES = 4096;
/** The longest a line waits in the buffer. */
export const LOG_FLUSH_MS = 200;

// sonic-boom sets `destroyed` once ended or destroyed (its typings omit it).
type Destination = ReturnType<typeof pino.destination> & { readonly destroyed?: boolean };

const open = new Set<Destination>();

/** Writes whatever every destination holds, synchronously (safe in exit and signal handlers). */
export function flushLogsSync(): void {
  for (const destination of open) {
    try {
      destination.flushSync();
    } catch {
      // Not open yet, or closed: nothing of ours to write.
    }
  }
}

let exitHookInstalled = false;

/** A buffered asynchronous destination on `fd` (stdout by default), flushed on exit. */
export function bufferedDestination(fd = 1, flushMs = LOG_FLUSH_MS): Destination {
  const destination: Destination = pino.destination({ dest: fd, sync: false, minLength: LOG_BUFFER_BYTES });
  open.add(destination);
  const forget = () => {
    clearInterval(timer);
    open.delete(destination);
  };
  const timer = setInterval(() => {
    if (destination.destroyed) forget();
    else destination.flush();
  }, flushMs);
  timer.unref();
  destination.on('finish', forget);
  destination.on('close', forget);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', flushLogsSync);
  }
  return destination;
}

/**
 * Nest's shutdown hook closes the app on SIGTERM/SIGINT and then raises the signal again, which
 * ends the process without an exit event: buffered lines are written just before that.
 */
export function flushLogsBeforeSignalExit(signal: NodeJS.Signals): void {
  process.once(signal, () => {
    flushLogsSync();
    process.kill(process.pid, signal);
  });
}
