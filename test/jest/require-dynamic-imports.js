// Jest runs CommonJS without a dynamic-import hook (unless node runs with
// --experimental-vm-modules), but PGlite's CommonJS build loads Node built-ins through
// `await import("fs")`. For those files only, turn literal built-in imports into require().
const BUILTIN_IMPORT = /\bimport\((["'])((?:node:)?[a-z_/]+)\1\)/g;

module.exports = {
  process(source) {
    // The bundle declares its own `var require` in places, so keep the module's under another name.
    const code = source.replace(
      BUILTIN_IMPORT,
      (_match, quote, name) => `Promise.resolve(__jestModuleRequire(${quote}${name}${quote}))`,
    );
    return { code: `var __jestModuleRequire = require;${code}` };
  },
  getCacheKey(source, path) {
    return require('node:crypto').createHash('sha256').update('v2').update(path).update(source).digest('hex');
  },
};
