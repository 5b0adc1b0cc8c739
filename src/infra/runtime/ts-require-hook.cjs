// Runs the TypeScript sources without a build (the tests' child processes, the scan workers when the
// service runs from src/, the npm scripts that take a .ts file): `.ts` files are transpiled on
// require (transpile only, CommonJS, decorators with their metadata for NestJS). Transpiling the
// ~210 files the service loads took about 9 s of CPU in every child and worker, so each output is
// kept on disk by a hash of the TypeScript version, the options, the file name and its contents:
// a changed file is a new entry, never a stale one. The cache goes where AEGIS_TS_CACHE says, else
// under the system temporary directory; a cache it cannot read or write only costs the saving.
// The built service (dist/) never loads this file.
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

function register() {
  if (require.extensions['.ts']) return;
  // TypeScript itself (about 0.5 s of CPU to load) is loaded only when a file is not in the cache.
  let ts = null;
  const compilerOptions = {
    module: 'commonjs',
    target: 'es2022',
    esModuleInterop: true,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    sourceMap: false,
  };
  const version = require('typescript/package.json').version;
  const salt = `${version}\0${JSON.stringify(compilerOptions)}\0`;
  const dir = process.env.AEGIS_TS_CACHE || path.join(os.tmpdir(), 'aegis-ts-transpile');
  let writable = true;
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch {
    writable = false;
  }

  require.extensions['.ts'] = function compile(module, filename) {
    const source = fs.readFileSync(filename, 'utf8');
    const key = crypto.createHash('sha256').update(salt).update(filename).update('\0').update(source).digest('hex');
    const file = path.join(dir, `${key.slice(0, 40)}.js`);
    let output = null;
    try {
      output = fs.readFileSync(file, 'utf8');
    } catch {
      output = null;
    }
    if (output === null) {
      ts ??= require('typescript');
      output = ts.transpileModule(source, { fileName: filename, compilerOptions }).outputText;
      if (writable) {
        // Written under a name of its own, then renamed: a reader sees a whole entry or none.
        const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
        try {
          fs.writeFileSync(partial, output);
          fs.renameSync(partial, file);
        } catch {
          try {
            fs.rmSync(partial, { force: true });
          } catch {
            // nothing to clean
          }
        }
      }
    }
    module._compile(output, filename);
  };
}

register();
module.exports = { register };
