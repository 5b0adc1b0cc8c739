import { Writable } from 'node:stream';
import { createLogger, REDACTED } from './logger';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger({ level: 'info' }, stream) };
}

describe('createLogger', () => {
  it('writes JSON with a textual level and redacts credentials wherever they appear', async () => {
    const { lines, logger } = capture();
    logger.info(
      {
        req: { headers: { authorization: 'token abc', cookie: 'sid=1', accept: 'json' } },
        res: { headers: { 'set-cookie': 'sid=2' } },
        token: 't-top',
        call: { password: 'p1', args: { client_secret: 'cs', accessToken: 'at', owner: 'acme' } },
      },
      'hello',
    );
    await new Promise((resolve) => setImmediate(resolve));
    const line = lines[0]!;
    expect(line).toMatchObject({ level: 'info', msg: 'hello', service: 'aegis-gitea-mcp' });
    const text = JSON.stringify(line);
    for (const secret of ['token abc', 'sid=1', 'sid=2', 't-top', 'p1', '"cs"', '"at"'])
      expect(text).not.toContain(secret);
    expect(line).toMatchObject({
      req: { headers: { authorization: REDACTED, cookie: REDACTED, accept: 'json' } },
      token: REDACTED,
      call: { password: REDACTED, args: { client_secret: REDACTED, accessToken: REDACTED, owner: 'acme' } },
    });
  });

  it('honours the level', () => {
    const { lines, logger } = capture();
    logger.debug('hidden');
    expect(lines).toHaveLength(0);
  });
});
