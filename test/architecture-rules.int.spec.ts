import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The architecture rules of `.dependency-cruiser.cjs` bite: each probe is a file with one wrong
 * import, written into the tree for the duration of the test (the rules match real paths), and
 * dependency-cruiser must name the rule it breaks. So do eslint.config.mjs's boundary rules (no
 * append by hand): their probes are linted as if they sat at their paths. The clean tree passing
 * is `npm run lint`.
 */
const root = join(__dirname, '..');
const tag = `zz-rule-probe-${process.pid}`;

interface Probe {
  file: string;
  source: string;
  rule: string;
}

const probes: Probe[] = [
  {
    file: `libs/webhooks/src/${tag}/probe.ts`,
    source: "import { ListWebhooksController } from '../list-webhooks/list-webhooks.http.controller';\nexport const probe = ListWebhooksController;\n",
    rule: 'use-case-is-self-contained',
  },
  {
    file: `libs/opportunities/src/domain/${tag}-infrastructure.ts`,
    source: "import { DataSource } from 'typeorm';\nexport const probe = DataSource;\n",
    rule: 'domain-is-pure',
  },
  {
    file: `libs/opportunities/src/domain/${tag}-io.ts`,
    source: "import { readFileSync } from 'node:fs';\nexport const probe = readFileSync;\n",
    rule: 'domain-has-no-io',
  },
  {
    file: `libs/webhooks/src/domain/${tag}-service.ts`,
    source: "import { WebhooksRepository } from '../webhooks.repository';\nexport const probe = WebhooksRepository;\n",
    rule: 'domain-imports-only-domain',
  },
  {
    file: `libs/usage/src/${tag}-concern.ts`,
    source: "import { OpportunitiesModule } from '@libs/opportunities';\nexport const probe = OpportunitiesModule;\n",
    rule: 'concern-imports:usage',
  },
  {
    file: `libs/http/src/${tag}-platform.ts`,
    source: "import { TenancyModule } from '@libs/tenancy';\nexport const probe = TenancyModule;\n",
    rule: 'platform-imports:http',
  },
  {
    file: `projections/${tag}-deep.ts`,
    source: "import { TenancyRepository } from '../libs/tenancy/src/tenancy.repository';\nexport const probe = TenancyRepository;\n",
    rule: 'through-the-index',
  },
  {
    file: `apps/dashboard/src/${tag}-module.ts`,
    source: "import { OpportunitiesModule } from '@libs/opportunities';\nexport const probe = OpportunitiesModule;\n",
    rule: 'dashboard-takes-pure-code-only',
  },
  {
    file: `apps/dashboard/src/${tag}-node.ts`,
    source: "import { createHash } from 'node:crypto';\nexport const probe = createHash;\n",
    rule: 'dashboard-has-no-node',
  },
  {
    // Production code (a projector) using a library's test kit through its entry point.
    file: `projections/${tag}-harness.ts`,
    source: "import { projectorHarness } from '@libs/projection-engine/testing';\nexport const probe = projectorHarness;\n",
    rule: 'testing-is-for-tests',
  },
  {
    // ... or a library's own fixtures, from inside the library.
    file: `libs/detectors/src/domain/${tag}-fixture-user.ts`,
    source: "import { many } from '../testing';\nexport const probe = many;\n",
    rule: 'testing-is-for-tests',
  },
  {
    // The test kit is reached through its entry point, not a file inside it.
    file: `test/${tag}-deep-testing.ts`,
    source: "import { projectorHarness } from '../libs/projection-engine/src/testing/projector-harness';\nexport const probe = projectorHarness;\n",
    rule: 'through-the-index',
  },
  {
    // Test data beside the domain instead of in testing/.
    file: `libs/opportunities/src/domain/${tag}.fixture.ts`,
    source: "import type { OpportunityEvent } from './opportunity.events';\nexport const probe: OpportunityEvent[] = [];\n",
    rule: 'fixtures-in-testing',
  },
  {
    // Issue 30: a controller is decorators and one call; the read model is its query's business.
    file: `libs/visibility/src/aeo-metrics/${tag}.http.controller.ts`,
    source: "import { RollupReads } from '../read-model/rollup-reads';\nexport const probe = RollupReads;\n",
    rule: 'controller-reads-through-its-query',
  },
  {
    // Issue 30: a file at a library's root (shared by its use cases) does not reach into a use case.
    file: `libs/visibility/src/${tag}-root.ts`,
    source: "import { AeoMetrics } from './aeo-metrics/aeo-metrics.query';\nexport const probe = AeoMetrics;\n",
    rule: 'root-imports-no-use-case',
  },
  {
    // Issue 30: a library never imports a projection (@projections).
    file: `libs/citations/src/read-model/${tag}-projection.ts`,
    source: "import { PROJECTORS } from '@projections';\nexport const probe = PROJECTORS;\n",
    rule: 'libs-do-not-import-projections',
  },
  {
    // Issue 30: pure code takes its settings as arguments, never from @libs/config.
    file: `libs/metrics/src/${tag}-config.ts`,
    source: "import { ConfigModule } from '@libs/config';\nexport const probe = ConfigModule;\n",
    rule: 'pure-code-has-no-config',
  },
  {
    file: `libs/tenancy/src/${tag}-app.ts`,
    source: "import { ApiModule } from '../../../apps/api/src/api.module';\nexport const probe = ApiModule;\n",
    rule: 'libs-do-not-import-apps',
  },
];

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

describe('architecture rules', () => {
  let violations: Violation[] = [];

  beforeAll(async () => {
    for (const p of probes) {
      mkdirSync(dirname(join(root, p.file)), { recursive: true });
      writeFileSync(join(root, p.file), p.source);
    }
    try {
      const run = promisify(execFile);
      const bin = join(root, 'node_modules', '.bin', 'depcruise');
      // Exit code 1 means "violations found": the report is still on stdout.
      const { stdout } = await run(bin, ['--config', '.dependency-cruiser.cjs', '--output-type', 'json', ...probes.map((p) => p.file)], { cwd: root, maxBuffer: 64 * 1024 * 1024 }).catch(
        (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }),
      );
      violations = (JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations;
    } finally {
      for (const p of probes) rmSync(join(root, p.file), { force: true });
      rmSync(join(root, `libs/webhooks/src/${tag}`), { recursive: true, force: true });
    }
  }, 60_000);

  it.each(probes.map((p) => [p.rule, p]))('a wrong import breaks %s', (_rule, probe) => {
    const named = violations.filter((v) => v.from === probe.file).map((v) => v.rule.name);
    expect(named).toContain(probe.rule);
  });
});

/** The ESLint rules that keep a boundary (not style): a probe breaking each is linted as if it were at its path. */
const lintProbes: Probe[] = [
  {
    file: 'libs/analysis/src/answer-questions/zz-append-probe.ts',
    source:
      "import type { EventStore } from '@libs/event-store';\nexport const probe = (store: EventStore) => store.appendToStream('answer-1-0', [], { kind: 'no_stream' });\n",
    rule: 'no-restricted-properties',
  },
  {
    file: 'libs/analysis/src/seed-history/zz-bulk-probe.ts',
    source: "import type { EventStore } from '@libs/event-store';\nexport const probe = (store: EventStore) => store.appendToNewStreams?.([]);\n",
    rule: 'no-restricted-properties',
  },
];

describe('lint rules', () => {
  const lint = async (probe: Probe): Promise<{ ruleId: string | null; message: string }[]> => {
    const bin = join(root, 'node_modules', '.bin', 'eslint');
    const run = () =>
      new Promise<string>((resolve, reject) => {
        const child = execFile(bin, ['--format', 'json', '--stdin', '--stdin-filename', probe.file], { cwd: root, maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
          // Exit code 1 means "problems found": the report is still on stdout.
          if (error && !stdout) reject(error);
          else resolve(stdout);
        });
        child.stdin!.end(probe.source);
      });
    const [report] = JSON.parse(await run()) as { messages: { ruleId: string | null; message: string }[] }[];
    return report.messages;
  };

  it.each(lintProbes.map((p) => [p.file, p]))('an append by hand is refused: %s', async (_file, probe) => {
    const messages = await lint(probe);
    expect(messages.map((m) => m.ruleId)).toContain(probe.rule);
    expect(messages.find((m) => m.ruleId === probe.rule)?.message).toMatch(/event-sourcing kit|DecisionRunner/);
  }, 60_000);

  it('a test may still write events by hand', async () => {
    const messages = await lint({ ...lintProbes[0], file: 'libs/analysis/src/answer-questions/zz-append-probe.int.spec.ts' });
    expect(messages.map((m) => m.ruleId)).not.toContain('no-restricted-properties');
  }, 60_000);
});
