/** One Jest run for unit (*.unit.spec.ts), integration (*.int.spec.ts) and end-to-end (*.e2e.spec.ts) tests.
 * NestJS 12 packages are ESM-only; @swc/jest transforms them (and our TypeScript) to CommonJS. */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/projections', '<rootDir>/test', '<rootDir>/packages'],
  testMatch: ['**/*.spec.ts'],
  // The scale-out test bed (`npm run test:scale`, its own step of .ci/run) starts its own servers: not part of `npm test`.
  testPathIgnorePatterns: process.env.AOV_SCALE_TESTS ? ['/node_modules/'] : ['/node_modules/', '\\.scale\\.spec\\.ts$'],
  transform: { '^.+\\.(t|j|mj)s$': swc },
  // Transform only the ESM-only packages; everything else in node_modules is CommonJS already.
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|@fastify/static|cookie)/)'],
  // The tsconfig.json path aliases (a library's test kit: @libs/<name>/testing).
  moduleNameMapper: { '^@libs/([^/]+)$': '<rootDir>/libs/$1/src', '^@libs/([^/]+)/testing$': '<rootDir>/libs/$1/src/testing', '^@projections$': '<rootDir>/projections' },
  maxWorkers: 2,
  testTimeout: 60000,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
