import { Writable } from 'node:stream';
import { createLogger, redactCredentials, REDACTED } from './logger';

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

  it('redacts child bindings, keeps the caller object intact and leaves errors serialisable', async () => {
    const { lines, logger } = capture();
    const child = logger.child({ component: 'x', auth: { Authorization: 'Bearer child-secret' } });
    const payload = { call: { headers: { 'Set-Cookie': 'sid=3', 'X-Api-Key': 'k-1' } }, n: 1 };
    const err = Object.assign(new Error('boom'), { config: { token: 'in-error' } });
    child.info({ ...payload, err }, 'child');
    await new Promise((resolve) => setImmediate(resolve));
    const text = JSON.stringify(lines[0]);
    for (const secret of ['child-secret', 'sid=3', 'k-1', 'in-error']) expect(text).not.toContain(secret);
    expect(lines[0]).toMatchObject({ component: 'x', n: 1, err: { message: 'boom' } });
    expect(payload.call.headers['Set-Cookie']).toBe('sid=3');
    expect(err.config.token).toBe('in-error');
  });

  it('searches three levels below the top level and no deeper', () => {
    expect(redactCredentials({ a: { b: { c: { password: 'p' } } } })).toEqual({
      a: { b: { c: { password: REDACTED } } },
    });
    const deep = { a: { b: { c: { d: { password: 'p' } } } } };
    expect(redactCredentials(deep)).toBe(deep);
    const clean = { tool: 'repoGet', status: 200 };
    expect(redactCredentials(clean)).toBe(clean);
  });

  it('honours the level', () => {
    const { lines, logger } = capture();
    logger.debug('hidden');
    expect(lines).toHaveLength(0);
  });
});
