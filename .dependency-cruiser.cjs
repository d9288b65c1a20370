/** Architecture rules checked in CI (`npm run lint`); `test/architecture.int.spec.ts` proves each one bites. */
const infrastructure =
  '(^|/)node_modules/(@nestjs|typeorm|pg|pg-cursor|ioredis|bullmq|@eventstore|fastify|@fastify|pino|prom-client|class-validator|class-transformer)/';

/**
 * Platform libraries: the kits every concern builds on. Any library may import them (through
 * their index); they import only each other, plus what PLATFORM_EXTRAS allows.
 */
const PLATFORM = [
  'answer-analysis', 'config', 'database', 'egress', 'event-sourcing', 'event-store', 'http', 'local-services', 'metrics', 'observability',
  'projection-engine', 'queue', 'redis', 'sql',
];
/** `/health` and `/metrics` are public routes: observability needs auth's @Public() marker. */
const PLATFORM_EXTRAS = {
  observability: ['auth'],
};

/**
 * Concern libraries and the other concerns each may import (through their index). Anything not
 * listed here is refused: a new edge between concerns is a design decision, made here on purpose.
 */
const CONCERN_IMPORTS = {
  auth: [],
  // ... and an organisation's tier (a data edge on tenancy's organizations: test/table-ownership.unit.spec.ts).
  'rate-limit': ['auth', 'tenancy'],
  tenancy: ['auth'],
  // The cost per day of /usage is analysis's (the tokens of the answers and the price table).
  usage: ['auth', 'analysis'],
  opportunities: ['auth', 'tenancy'],
  // Webhooks publish the opportunity lifecycle: the dispatcher reads opportunities' typed events.
  // ... and `change.detected`, whose payload is citations' change record.
  // ... and `analysis_run.completed`, whose payload is analysis's run record.
  webhooks: ['auth', 'tenancy', 'opportunities', 'citations', 'analysis'],
  // What the service asks the AI engines and what they answered (DESIGN §13.1); audit requests are counted against the organisation's quota (rate-limit).
  analysis: ['auth', 'tenancy', 'rate-limit'],
  // Figures of the analysed answers; prompts (topics) come from analysis.
  visibility: ['auth', 'tenancy', 'analysis'],
  // Channel connections, their syncs and daily rows (DESIGN §13.3): clients and brands from tenancy.
  // ... and the AI-referral channel is a view of agent analytics' referral rollup (a data edge: test/table-ownership.unit.spec.ts).
  channels: ['auth', 'tenancy', 'agent-analytics'],
  // AI agents on customers' sites (DESIGN §13.2); visits belong to the brand whose domain is the host.
  'agent-analytics': ['auth', 'tenancy'],
  // Page audits (DESIGN §13.5): brands from tenancy; answer findings read analysis's read models by SQL, not its code; pages are counted against the organisation's quota (rate-limit).
  // Data edges (test/table-ownership.unit.spec.ts): answer findings read analysis's answer read models, a page's agent visits agent-analytics' rollup.
  'page-audits': ['auth', 'tenancy', 'rate-limit', 'analysis', 'agent-analytics'],
  // Citations, citation sources, prompts and changes of the analysed answers; prompts (topics, tracked queries) come from analysis.
  // Data edge (test/table-ownership.unit.spec.ts): Search Console queries (channels' content rollup) are candidate prompts.
  citations: ['auth', 'tenancy', 'analysis', 'channels'],
  // The closed loop (issue 19): detectors read analysis's events and answers, open and move opportunities; brands from tenancy.
  // Data edges (test/table-ownership.unit.spec.ts): crawl blocks (agent-analytics), outcomes (channels' metrics), page gaps (page-audits).
  detectors: ['auth', 'tenancy', 'analysis', 'visibility', 'opportunities', 'agent-analytics', 'channels', 'page-audits'],
  // The MCP server (DESIGN §16): its tools call the read and write use cases of these concerns; usage counts a call under its tool's name.
  mcp: ['auth', 'tenancy', 'usage', 'opportunities', 'analysis', 'visibility', 'citations', 'agent-analytics'],
};

/** Concerns laid out in the module anatomy (README, "Layout"): a folder per use case. */
const ANATOMY = ['opportunities', 'webhooks', 'tenancy', 'usage', 'analysis', 'visibility', 'citations', 'page-audits', 'agent-analytics', 'channels', 'detectors'];
/** Folders of such a library that are not use cases, shared by its use cases (`testing`: by their specs only). */
const SHARED_FOLDERS = ['domain', 'read-model', 'migrations', 'shared', 'testing'];

/** Pure libraries a domain may use besides its own domain code. */
const PURE = ['metrics', 'answer-analysis', 'event-sourcing'];

const alternation = (names) => names.map((n) => n.replace(/[-]/g, '\\-')).join('|');

const importRules = [
  ...Object.entries(CONCERN_IMPORTS).map(([lib, allowed]) => ({
    name: `concern-imports:${lib}`,
    comment: `${lib} may import the platform libraries and only these concerns: ${allowed.join(', ') || 'none'} (CONCERN_IMPORTS).`,
    severity: 'error',
    from: { path: `^libs/${lib}/` },
    to: { path: '^libs/[^/]+/', pathNot: `^libs/(${alternation([lib, ...PLATFORM, ...allowed])})/` },
  })),
  ...PLATFORM.map((lib) => ({
    name: `platform-imports:${lib}`,
    comment: `${lib} is a platform library: it imports only other platform libraries${PLATFORM_EXTRAS[lib] ? ` and ${PLATFORM_EXTRAS[lib].join(', ')}` : ''}.`,
    severity: 'error',
    from: { path: `^libs/${lib}/`, pathNot: '\\.spec\\.ts$' },
    to: { path: '^libs/[^/]+/', pathNot: `^libs/(${alternation([lib, ...PLATFORM, ...(PLATFORM_EXTRAS[lib] ?? [])])})/` },
  })),
];

module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'Domain code (libs/*/src/domain and the pure libraries) imports nothing from Nest, the database, Redis, HTTP or validation.',
      severity: 'error',
      from: { path: `^libs/([^/]+/src/domain/|(${alternation(PURE)})/src/)` },
      to: { path: infrastructure },
    },
    {
      name: 'domain-has-no-io',
      comment: 'Domain code does no I/O: no node:fs, node:net, node:http, node:child_process.',
      severity: 'error',
      from: { path: `^libs/([^/]+/src/domain/|(${alternation(PURE)})/src/)`, pathNot: '\\.spec\\.ts$|/eval/' },
      to: { dependencyTypes: ['core'], path: '^(fs|net|http|https|child_process|dgram|dns|http2|tls|worker_threads)$' },
    },
    {
      name: 'domain-imports-only-domain',
      comment: "A domain imports only its own domain code and the pure libraries, never its library's use cases, read models or services.",
      severity: 'error',
      from: { path: '^libs/([^/]+)/src/domain/', pathNot: '\\.spec\\.ts$' },
      to: { path: '^(libs|projections|apps)/', pathNot: `^libs/($1/src/domain/|(${alternation(PURE)})/src/)` },
    },
    {
      name: 'use-case-is-self-contained',
      comment: `A use-case folder (libs/<concern>/src/<verb>-<noun>/) imports no sibling use case: what two use cases share lives in domain/, read-model/, shared/ or the library's root.`,
      severity: 'error',
      from: { path: `^libs/(${alternation(ANATOMY)})/src/([^/]+)/` },
      to: { path: '^libs/$1/src/[^/]+/', pathNot: `^libs/$1/src/($2|${alternation(SHARED_FOLDERS)})/` },
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
      comment:
        'Outside a library, reach it through its exported index only (libs/<name>/src/index.ts, imported as @libs/<name>), or its test kit\'s (libs/<name>/src/testing/index.ts, @libs/<name>/testing).',
      severity: 'error',
      // The dashboard's browser code has its own rule (below): it takes pure files, not indexes.
      from: { path: '^(apps|projections|bench|test)/|^libs/([^/]+)/', pathNot: ['\\.spec\\.ts$', '^apps/dashboard/src/'] },
      to: { path: '^libs/([^/]+)/src/.+', pathNot: ['^libs/$1/', '^libs/[^/]+/src/(testing/)?index\\.ts$'] },
    },
    {
      name: 'testing-is-for-tests',
      comment:
        'A library\'s test kit (libs/<name>/src/testing/: fixtures, harnesses, contracts; @libs/<name>/testing) is for specs, test/ and bench/: production code never imports it (the build leaves it out).',
      severity: 'error',
      from: { path: '^(apps|libs|projections)/', pathNot: ['\\.spec\\.ts$', '^libs/[^/]+/src/testing/'] },
      to: { path: '^libs/[^/]+/src/testing/' },
    },
    {
      name: 'fixtures-in-testing',
      comment: 'Test data (*.fixture.ts) lives in its library\'s testing/ folder, never in domain/ or beside production code.',
      severity: 'error',
      from: { path: '\\.fixtures?\\.ts$', pathNot: '^libs/[^/]+/src/testing/' },
      to: {},
    },
    {
      name: 'dashboard-takes-pure-code-only',
      comment:
        "The dashboard's browser code (apps/dashboard/src) is bundled for the browser: of the service it may take only pure code, a domain's files or a pure library, never a Nest module, a read model or I/O (a library's index brings those in). Its data comes from the public API.",
      severity: 'error',
      from: { path: '^apps/dashboard/src/' },
      to: { path: '^(libs|projections|apps)/', pathNot: `^(apps/dashboard/src/|libs/[^/]+/src/domain/|libs/(${alternation(PURE)})/src/)` },
    },
    {
      name: 'dashboard-has-no-node',
      comment: "The dashboard's browser code uses no Node built-in module.",
      severity: 'error',
      from: { path: '^apps/dashboard/src/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'controller-reads-through-its-query',
      comment:
        "A controller is decorators and one call: it reads through its use case's <use-case>.query.ts, never the library's read-model/ (row types, SQL) itself (issue 30).",
      severity: 'error',
      from: { path: `^libs/(${alternation(ANATOMY)})/src/.+\\.controller\\.ts$` },
      to: { path: '^libs/$1/src/read-model/' },
    },
    {
      name: 'root-imports-no-use-case',
      comment:
        "A file at a library's root (shared by its use cases) imports no use-case folder: what it needs lives in domain/, read-model/, shared/ or the root. Only the Nest module and index.ts, which compose the use cases, may (issue 30).",
      severity: 'error',
      from: { path: `^libs/(${alternation(ANATOMY)})/src/[^/]+\\.ts$`, pathNot: ['\\.module\\.ts$', '/index\\.ts$', '\\.spec\\.ts$'] },
      to: { path: '^libs/$1/src/[^/]+/', pathNot: `^libs/$1/src/(${alternation(SHARED_FOLDERS)})/` },
    },
    {
      name: 'libs-do-not-import-projections',
      comment: 'Libraries never import projections (@projections): a projection builds a read model from the events; the library that owns the table reads it (issue 30).',
      severity: 'error',
      from: { path: '^libs/', pathNot: '\\.spec\\.ts$' },
      to: { path: '^projections/' },
    },
    {
      name: 'pure-code-has-no-config',
      comment: 'The pure libraries and every domain/ take their settings as arguments: they never import @libs/config (issue 30).',
      severity: 'error',
      from: { path: `^libs/([^/]+/src/domain/|(${alternation(PURE)})/src/)` },
      to: { path: '^libs/config/' },
    },
    ...importRules,
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
