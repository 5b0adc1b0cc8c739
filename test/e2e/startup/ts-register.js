// Lets a child `node` process run the TypeScript sources directly (transpile only), so the
// start-up tests exercise the real entry point without a build: node -r ./ts-register.js src/main.ts
const fs = require('node:fs');
const ts = require('typescript');

require.extensions['.ts'] = function register(module, filename) {
  const source = fs.readFileSync(filename, 'utf8');
  const { outputText } = ts.transpileModule(source, {
    fileName: filename,
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      sourceMap: false,
    },
  });
  module._compile(outputText, filename);
};
