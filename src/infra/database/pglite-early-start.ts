// The entry point's second import (after the compile cache, before Nest): when the configuration
// is the embedded default with a DATA_DIR, the embedded database's thread starts now, so filling
// the data directory and starting PGlite (about 1.3 s of CPU) run on the other core while this
// thread loads the service's modules (about 2 s). The database module takes the thread over
// (takeEarlyPgliteThread); with any other configuration, or a configuration the entry point will
// refuse, nothing starts here. Only when dist/src/main.js (or src/main.ts) is the process's entry:
// the tests import main.ts without starting anything.
import { join } from 'node:path';
import { parseConfig } from '../../config/env.schema';
import { startupRefusals } from '../../config/startup-checks';
import { PGLITE_START_PARAMS } from './pglite-start-params';
import { startPgliteThreadEarly } from './pglite-thread';

function isEntryPoint(): boolean {
  const entry = require.main?.filename;
  const main = join(__dirname, '..', '..', 'main');
  return entry === `${main}.js` || entry === `${main}.ts`;
}

export function startEmbeddedDatabaseEarly(env: NodeJS.ProcessEnv): boolean {
  const parsed = parseConfig(env);
  if (!parsed.ok || startupRefusals(parsed.config).length > 0) return false;
  const { databaseUrl, dataDir } = parsed.config.storage;
  if (databaseUrl) return false;
  return startPgliteThreadEarly(dataDir, PGLITE_START_PARAMS);
}

if (isEntryPoint()) startEmbeddedDatabaseEarly(process.env);
