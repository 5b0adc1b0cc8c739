// Small clients for the policy e2e tests: the admin API (every answer checked against the OpenAPI
// document the service serves), Gitea as a seeded person, and a raw session-based MCP client that
// shows HTTP status and headers (the SDK clients hide a 429's Retry-After).
import Ajv2020 from 'ajv/dist/2020';
import { responseSchemaOf } from '../../../../src/modules/policy/admin-openapi';

const ajv = new Ajv2020({ strict: false, allErrors: true });
const validators = new Map<string, ReturnType<typeof ajv.compile>>();

export type Answer = { status: number; body: any; headers: Headers };

/** Calls /api/admin and fails the test when the answer does not match the documented schema. */
export async function adminCall(
  base: string,
  method: string,
  path: string,
  bearer: string | null,
  body?: unknown,
  route?: string,
): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  const json = JSON.parse(text);
  const documented = route ?? path.split('?')[0]!.replace(/\/orgs\/[^/]+\//, '/orgs/{org}/');
  const schema = responseSchemaOf(method, documented, response.status);
  if (!schema)
    throw new Error(
      `${method} ${documented} answered ${response.status}, which the OpenAPI document does not list`,
    );
  const key = `${method} ${documented} ${response.status}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(key, validate);
  }
  if (!validate(json))
    throw new Error(
      `${key}: answer does not match the OpenAPI schema: ${ajv.errorsText(validate.errors)}\n${text.slice(0, 500)}`,
    );
  return { status: response.status, body: json, headers: response.headers };
}

export async function giteaCall(
  giteaUrl: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
) {
  const response = await fetch(`${giteaUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (response.status >= 300)
    throw new Error(`Gitea ${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : null;
}

/** A 2025-06-18 session opened with raw HTTP on one replica (session ids verify on any replica). */
export async function rawSession(url: string, bearer: string) {
  const headers = {
    authorization: `Bearer ${bearer}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  const init = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'raw-e2e', version: '1' },
      },
    }),
  });
  const sessionId = init.headers.get('mcp-session-id');
  await init.text();
  if (!sessionId) throw new Error(`initialize answered ${init.status} without a session`);
  const sessionHeaders = { ...headers, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
  await fetch(url, {
    method: 'POST',
    headers: sessionHeaders,
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  }).then((r) => r.text());
  let id = 1;
  return {
    async call(targetUrl: string, name: string, args: Record<string, unknown>) {
      const response = await fetch(targetUrl, {
        method: 'POST',
        headers: sessionHeaders,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: id++,
          method: 'tools/call',
          params: { name, arguments: args },
        }),
      });
      const json = JSON.parse(await response.text());
      const text = json.result?.content?.[0]?.text;
      return {
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        json,
        result: typeof text === 'string' ? JSON.parse(text) : null,
        isError: json.result?.isError === true,
      };
    },
  };
}
