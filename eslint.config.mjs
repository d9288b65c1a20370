// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'coverage/**', '**/*.js', '**/*.cjs', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // Every append goes through the event-sourcing kit: a decider decides what is recorded, DecisionRunner
    // (or appendNewStreams for a bulk of new streams) appends it. The event store itself, tests and test kits
    // write events directly; an exception elsewhere says why beside an eslint-disable comment.
    files: ['apps/**/*.ts', 'libs/**/*.ts', 'projections/**/*.ts'],
    ignores: ['libs/event-store/**', '**/*.spec.ts', 'libs/*/src/testing/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { property: 'appendToStream', message: 'Append through the event-sourcing kit: a decider and DecisionRunner (libs/event-store), not the store.' },
        { property: 'appendToNewStreams', message: 'Append new streams with DecisionRunner.decideNew and appendNewStreams (libs/event-store), not the store.' },
      ],
    },
  },
  {
    // Command-line programs, benchmarks and tests print on purpose.
    files: ['apps/cli/**', 'apps/standalone/**', 'bench/**', 'test/**', '**/*.spec.ts', 'libs/*/eval/**'],
    rules: { 'no-console': 'off' },
  },
);
