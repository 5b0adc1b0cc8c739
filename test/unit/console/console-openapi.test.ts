// The console's API client is generated from web/openapi/admin.json: it must be exactly the
// document /api/admin/openapi.json serves, so the console can call nothing the API lacks and
// misses nothing it has (regenerate with `npm run console:openapi`).
import { readFileSync } from 'node:fs';
import { CONSOLE_OPENAPI_FILE } from '../../../scripts/console-openapi';
import { adminOpenApiDocument } from '../../../src/modules/policy/admin-openapi';

describe('the console client document', () => {
  it('equals the admin API OpenAPI document', () => {
    const committed: unknown = JSON.parse(readFileSync(CONSOLE_OPENAPI_FILE, 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(adminOpenApiDocument())));
  });
});
