// Entry of a scan worker when the service runs from its TypeScript sources (jest, dev): compiles .ts
// files on require (transpile only, as test/e2e/startup/ts-register.js does for the main thread),
// then exports the worker's task. The built service loads scrub.worker.js directly.
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

if (!require.extensions['.ts']) {
  require.extensions['.ts'] = function register(module, filename) {
    const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
      fileName: filename,
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        esModuleInterop: true,
      },
    });
    module._compile(outputText, filename);
  };
}
module.exports = require(path.join(__dirname, 'scrub.worker.ts'));
