// Type-aware lint for src and test. The pure-core boundary is enforced here and again by
// test/unit/architecture.test.ts (which also fails if this rule is switched off).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export const CORE_FORBIDDEN_IMPORTS = ['@nestjs/*', '@prisma/*', '**/generated/**', 'bullmq', 'ioredis', 'passport*', 'pino', 'prom-client', 'undici', 'pg', '**/config/**', '**/infra/**', '**/modules/**'];
// src/infra holds adapters: it never imports a Nest feature module (tokens live with their adapter).
export const INFRA_FORBIDDEN_IMPORTS = ['**/modules/**'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'src/generated/**', 'web/**', 'coverage/**', 'helm/**', '**/*.mjs', '**/*.js', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: CORE_FORBIDDEN_IMPORTS, message: 'src/core is framework-free: inject what you need through a port.' }] }],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'src/core never reads process.env: take the value as a parameter.' }],
    },
  },
  {
    files: ['src/infra/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: INFRA_FORBIDDEN_IMPORTS, message: 'src/infra never imports src/modules: export your own injection token.' }] }],
    },
  },
  {
    files: ['test/**/*.ts', '**/*.spec.ts', 'src/core/testing/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  prettier,
);
