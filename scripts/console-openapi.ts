// Writes the admin API's OpenAPI document (the one /api/admin/openapi.json serves, built from the
// zod schemas) to web/openapi/admin.json, from which the console's typed client is generated.
// test/unit/console/console-openapi.test.ts fails until this is run after an admin API change.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminOpenApiDocument } from '../src/modules/policy/admin-openapi';

export const CONSOLE_OPENAPI_FILE = join(__dirname, '../web/openapi/admin.json');

if (require.main === module) {
  writeFileSync(CONSOLE_OPENAPI_FILE, `${JSON.stringify(adminOpenApiDocument(), null, 2)}\n`);
  process.stdout.write(`wrote ${CONSOLE_OPENAPI_FILE}\n`);
}
