// Entry of the embedded database's thread when the service runs from its TypeScript sources (jest,
// dev): compiles .ts files on require, then runs the worker. The built service loads
// pglite-thread.worker.js directly.
const path = require('node:path');

// Transpiled files are cached on disk, shared with the tests' child processes.
require(path.join(__dirname, '..', 'runtime', 'ts-require-hook.cjs'));
require(path.join(__dirname, 'pglite-thread.worker.ts'));
