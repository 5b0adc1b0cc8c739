// TypeScript require hook for the service process the MCP e2e tests start: NestJS 12 is ESM-only,
// which Jest's module runtime cannot load on Node 20, while plain Node 20.19+ requires it. The
// transpiled files are cached on disk (src/infra/runtime/ts-require-hook.cjs).
require('../../../../src/infra/runtime/ts-require-hook.cjs');
