// Lets a child `node` process run the TypeScript sources directly (transpile only, cached on disk;
// see src/infra/runtime/ts-require-hook.cjs), so the start-up tests exercise the real entry point
// without a build: node -r ./ts-register.js src/main.ts
require('../../../src/infra/runtime/ts-require-hook.cjs');
