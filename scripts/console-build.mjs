// Installs (npm ci, from web/package-lock.json) and builds the console in web/ into web/dist,
// which the service serves under /admin. Run by the root `npm ci`/`npm install` (postinstall),
// and by the console's browser tests when web/dist is missing.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = join(dirname(fileURLToPath(import.meta.url)), '..', 'web');
if (!existsSync(join(web, 'package.json'))) process.exit(0);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const run = (args) => execFileSync(npm, args, { cwd: web, stdio: 'inherit' });
if (process.argv.includes('--install') || !existsSync(join(web, 'node_modules', '.package-lock.json')))
  run(['ci', '--no-audit', '--no-fund']);
run(['run', 'build']);
