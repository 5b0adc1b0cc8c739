// Three projects: unit (pure core, no services), integration (real PostgreSQL/Redis when
// TEST_DATABASE_URL / TEST_REDIS_URL are set, PGlite always), e2e (booted service + simulator
// + official MCP SDK clients). Type checking is `npm run typecheck`; jest only transpiles.
const ESM_ONLY = ['@nestjs'];
const transform = {
  '^.+\\.ts$': ['ts-jest', { diagnostics: false }],
  // PGlite's CommonJS build uses import() for Node built-ins; see the transformer.
  '^.+/@electric-sql/pglite/dist/.+\\.c?js$': '<rootDir>/test/jest/require-dynamic-imports.js',
  // ESM-only packages (NestJS 12) that Jest must see as CommonJS; see the transformer.
  [`^.+/node_modules/(${ESM_ONLY.join('|')})/.+\\.m?js$`]: '<rootDir>/test/jest/esm-to-cjs.js',
};
const common = {
  transform,
  transformIgnorePatterns: [`/node_modules/(?!(@electric-sql/pglite|${ESM_ONLY.join('|')})/)`],
  // Node's environment, with the Float32Array of the addons' realm (onnxruntime-node; see the file).
  testEnvironment: '<rootDir>/test/jest/node-environment.js',
  moduleFileExtensions: ['ts', 'js', 'json', 'mjs', 'cjs'],
  rootDir: __dirname,
};

module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/unit/**/*.test.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
    },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.test.ts'] },
  ],
};
