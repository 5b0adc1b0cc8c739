// NestJS 12 ships ES modules only. Node >= 20.19 loads them from CommonJS at run time
// (require(esm)), but Jest's module system (before Node 24.9) cannot. For the packages listed in
// jest.config.js, rewrite ESM to CommonJS with TypeScript's transpiler, after mapping the few
// import.meta uses to their CommonJS equivalents.
const { createHash } = require('node:crypto');
const ts = require('typescript');

function toCommonJs(source, filename) {
  const code = source
    // `const require = createRequire(import.meta.url)`: CommonJS already has one.
    .replace(/^\s*(?:const|let|var)\s+(?:require|__filename|__dirname)\s*=[^;\n]*import\.meta[^;\n]*;?\s*$/gm, '')
    .replace(/\bimport\.meta\.url\b/g, "require('node:url').pathToFileURL(__filename).href")
    .replace(/\bimport\.meta\.dirname\b/g, '__dirname')
    .replace(/\bimport\.meta\.filename\b/g, '__filename')
    .replace(/\bimport\.meta\.resolve\b/g, 'require.resolve');
  return ts.transpileModule(code, {
    fileName: filename,
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
      allowJs: true,
      sourceMap: false,
    },
  }).outputText;
}

module.exports = {
  process(source, filename) {
    return { code: toCommonJs(source, filename) };
  },
  getCacheKey(source, filename) {
    return createHash('sha256').update('esm-to-cjs-v1').update(ts.version).update(filename).update(source).digest('hex');
  },
};
