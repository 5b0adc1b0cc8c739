// The per-call log line is buffered, not written on the request path; it reaches the file within
// the flush interval, and whatever is buffered is written synchronously on demand (exit, signal).
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bufferedDestination, flushLogsSync } from './log-destination';
import { createLogger } from './logger';

describe('buffered log destination', () => {
  const dir = mkdtempSync(join(tmpdir(), 'aegis-log-dest-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function fileLogger(name: string, flushMs: number) {
    const file = join(dir, name);
    const fd = openSync(file, 'w');
    const destination = bufferedDestination(fd, flushMs);
    const logger = createLogger({ level: 'info' }, destination);
    return { file, destination, logger, read: () => readFileSync(file, 'utf8') };
  }

  it('writes nothing while a call logs, and everything on a synchronous flush', async () => {
    const { destination, logger, read } = fileLogger('sync.log', 60_000);
    await new Promise((resolve) => destination.once('ready', resolve));
    logger.info({ tool: 'repoGet', token: 'not-logged' }, 'tool call');
    expect(read()).toBe(''); // buffered: no write on the caller's path
    flushLogsSync();
    const line = JSON.parse(read().trim()) as Record<string, unknown>;
    expect(line).toMatchObject({ msg: 'tool call', tool: 'repoGet', token: '[REDACTED]' });
    destination.end(); // closes fd
  });

  it('writes a buffered line within the flush interval without anyone asking', async () => {
    const { destination, logger, read } = fileLogger('timer.log', 20);
    await new Promise((resolve) => destination.once('ready', resolve));
    logger.info('one line');
    const deadline = Date.now() + 5_000;
    while (!read().includes('one line') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(read()).toContain('"msg":"one line"');
    destination.end(); // closes fd
  });
});
