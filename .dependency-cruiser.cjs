/** Architecture rules checked in CI (`npm run lint`). */
const infrastructure = '(^|/)node_modules/(@nestjs|typeorm|pg|pg-cursor|ioredis|bullmq|@eventstore|fastify|@fastify|nestjs-pino|pino|prom-client)/';
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'Domain code (libs/*/src/domain and the answer-analysis library) imports nothing from Nest, the database, Redis or HTTP.',
      severity: 'error',
      from: { path: '^libs/([^/]+/src/domain/|answer-analysis/src/)' },
      to: { path: infrastructure },
    },
    {
      name: 'domain-has-no-io',
      comment: 'Domain code does no I/O: no node:fs, node:net, node:http, node:child_process.',
      severity: 'error',
      from: { path: '^libs/[^/]+/src/domain/' },
      to: { dependencyTypes: ['core'], path: '^(fs|net|http|https|child_process|dgram|dns)$' },
    },
    {
      name: 'libs-do-not-import-apps',
      comment: 'Libraries and projections never depend on an application.',
      severity: 'error',
      from: { path: '^(libs|projections)/' },
      to: { path: '^apps/' },
    },
    {
      name: 'through-the-index',
      comment: 'Outside a library, reach it through its exported index only (libs/<name>/src/index.ts).',
      severity: 'error',
      from: { path: '^(apps|projections|bench|test)/|^libs/([^/]+)/', pathNot: '\\.spec\\.ts$' },
      to: { path: '^libs/([^/]+)/src/.+', pathNot: ['^libs/$1/', '^libs/[^/]+/src/index\\.ts$'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
