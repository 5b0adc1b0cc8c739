// The Python `mcp` package's OAuth client (another official SDK, not written by this project)
// against the service: discovery from the 401, dynamic registration, consent, token, a tool call
// as the person.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Browserless, personAuthorizes, startOAuthStack, type OAuthStack } from './helpers/oauth-stack';
import { pythonWithMcp } from './helpers/python-venv';

jest.setTimeout(300_000);

describe('Python mcp OAuth client', () => {
  let stack: OAuthStack;
  let python: string;

  beforeAll(async () => {
    python = pythonWithMcp();
    stack = await startOAuthStack({}, { postgres: false });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('signs the person in and calls tools as them', async () => {
    const child = spawn(python, [join(__dirname, 'python', 'oauth_client.py'), stack.mcpUrl], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const lines = createInterface({ input: child.stdout });
    let result: Record<string, any> | null = null;
    const browser = new Browserless();
    for await (const line of lines) {
      if (line.startsWith('AUTHORIZE ')) {
        const back = await personAuthorizes(stack, browser, line.slice('AUTHORIZE '.length), 'bob');
        child.stdin.write(`CALLBACK ${back.toString()}\n`);
      } else if (line.startsWith('RESULT ')) {
        result = JSON.parse(line.slice('RESULT '.length)) as Record<string, any>;
      }
    }
    const code = await new Promise<number | null>((resolve) => {
      if (child.exitCode !== null) resolve(child.exitCode);
      else child.once('exit', resolve);
    });
    expect({ code, stderr: code === 0 ? '' : stderr }).toEqual({ code: 0, stderr: '' });
    expect(result).toMatchObject({
      client_id: expect.stringMatching(/^dcr_/),
      scope: 'gitea:read',
      token_prefix: 'aegis_at_',
      envelope: { identity: { login: 'bob', mode: 'oauth' }, data: { login: 'bob' } },
    });
    expect(result!.tools).toBeGreaterThan(100);
  });
});
