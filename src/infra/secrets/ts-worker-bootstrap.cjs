// Entry of a scan worker when the service runs from its TypeScript sources (jest, dev): compiles .ts
// files on require (transpile only, as test/e2e/startup/ts-register.js does for the main thread),
// then exports the worker's task. The built service loads scrub.worker.js directly.
const path = require('node:path');

// Transpiled files are cached on disk, shared with the tests' child processes.
require(path.join(__dirname, '..', 'runtime', 'ts-require-hook.cjs'));
module.exports = require(path.join(__dirname, 'scrub.worker.ts'));
