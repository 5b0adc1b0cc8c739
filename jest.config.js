// Three projects: unit (pure core, no services), integration (real PostgreSQL/Redis when
// TEST_DATABASE_URL / TEST_REDIS_URL are set, PGlite always), e2e (booted service + simulator
// + official MCP SDK clients). Type checking is `npm run typecheck`; jest only transpiles.
const transform = { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] };
const common = {
  transform,
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json', 'mjs'],
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
