import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ACTION_SECRET_WRITE_OPERATIONS,
  CREDENTIAL_ISSUING_OPERATIONS,
  FILE_WRITE_OPERATIONS,
} from './secret-operations.util';

type Swagger = {
  paths: Record<
    string,
    Record<string, { operationId?: string; parameters?: Array<{ in: string; schema?: { $ref?: string } }> }>
  >;
};
const swagger = JSON.parse(
  readFileSync(join(__dirname, '../../../gitea/swagger.v1.json'), 'utf8'),
) as Swagger;
const ops = new Map<string, { method: string; path: string; bodyRef?: string }>();
for (const [p, item] of Object.entries(swagger.paths)) {
  for (const [method, op] of Object.entries(item)) {
    if (op && typeof op === 'object' && op.operationId) {
      ops.set(op.operationId, {
        method,
        path: p,
        bodyRef: op.parameters?.find((x) => x.in === 'body')?.schema?.$ref,
      });
    }
  }
}

describe('operation sets', () => {
  it('lists exactly the credential-issuing operations of the ADR', () => {
    expect([...CREDENTIAL_ISSUING_OPERATIONS].sort()).toEqual(
      [
        'userCreateToken',
        'adminCreateRunnerRegistrationToken',
        'orgCreateRunnerRegistrationToken',
        'repoCreateRunnerRegistrationToken',
        'userCreateRunnerRegistrationToken',
        'userCreateOAuth2Application',
        'userUpdateOAuth2Application',
        'repoCreateDeployToken',
      ].sort(),
    );
  });

  it('knows which of them the bundled swagger has (repoCreateDeployToken is not in Gitea 28.1)', () => {
    const missing = [...CREDENTIAL_ISSUING_OPERATIONS].filter((id) => !ops.has(id));
    expect(missing).toEqual(['repoCreateDeployToken']);
  });

  it('names the Action secret create/update operations of repo, org and user', () => {
    for (const id of ACTION_SECRET_WRITE_OPERATIONS) {
      const op = ops.get(id);
      expect(op).toBeDefined();
      expect(op!.method).toBe('put');
      expect(op!.path).toMatch(/\/actions\/secrets\/\{secretname\}$/);
      expect(op!.bodyRef).toBe('#/definitions/CreateOrUpdateSecretOption');
    }
    const all = [...ops]
      .filter(([, o]) => o.bodyRef === '#/definitions/CreateOrUpdateSecretOption')
      .map(([id]) => id);
    expect(all.sort()).toEqual([...ACTION_SECRET_WRITE_OPERATIONS].sort());
  });

  it('names the file write operations that carry base64 content', () => {
    for (const id of FILE_WRITE_OPERATIONS) expect(ops.has(id)).toBe(true);
    expect(ops.get('repoChangeFiles')!.bodyRef).toBe('#/definitions/ChangeFilesOptions');
  });
});
