// A wait with a ceiling, for closing Redis clients whose socket may be half-open. Kept apart from
// redis-connections.ts so that stores using it do not load the Redis driver (lazy drivers).

/** Waits for `promise` (its outcome ignored) at most `ms`. */
export function bounded(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const ignore = (): void => undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([promise.then(ignore, ignore), timeout]).finally(() => clearTimeout(timer));
}
