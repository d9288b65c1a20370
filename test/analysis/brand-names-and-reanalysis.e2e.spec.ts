import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENT_STORE, type EventStore } from '@libs/event-store';
import { ProjectionRebuilder } from '@libs/projection-engine';
import { ANALYSIS_PROJECTORS } from '@projections';
import { WorkerPartModule } from '../../apps/worker/src/worker.module';
import { cli } from '../support/cli';
import { startTestApi, type TestApi } from '../support/test-api';
import { until } from '../support/until';

/**
 * The CLI's brand names (entities file, aliases, extra domains) and `answers reanalyze`: a new
 * domain of the brand turns the citations of recorded answers into the brand's after re-analysis.
 */
let api: TestApi;
let env: Record<string, string>;
beforeAll(async () => {
  api = await startTestApi({ ANALYSIS_SCHEDULER_POLL_MS: '86400000' }, [WorkerPartModule.forRoot()]);
  env = { DATABASE_URL: api.db.url, REDIS_PREFIX: api.config.redisPrefix };
});
afterAll(async () => {
  await api?.close();
});

const PROJECTIONS = ['analysis_runs', 'analysis_results', 'answer_entities', 'answer_citations'];

async function json(args: string[]) {
  const r = await cli(['--json', ...args], env);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(r.stdout);
}

describe('brand names and re-analysis', () => {
  it('brand create --entities-file, alias and domain edits, and answers reanalyze', async () => {
    const org = await api.organization();
    const file = join(tmpdir(), `entities-${process.pid}.json`);
    writeFileSync(
      file,
      JSON.stringify([
        { kind: 'brand', name: 'Northwind', aliases: ['NW'], domains: ['northwind.example', 'northwind.de'] },
        { kind: 'competitor', name: 'Contoso', aliases: [], domains: ['contoso.example'] },
        { kind: 'competitor', name: 'Fabrikam', aliases: ['Fab'], domains: ['fabrikam.example'] },
      ]),
    );
    const brand = await json(['brand', 'create', '--org', String(org.id), '--entities-file', file]);
    expect(brand).toMatchObject({ name: 'Northwind', domain: 'northwind.example', aliases: ['NW'], extraDomains: ['northwind.de'] });
    expect(brand.competitors.map((c: { name: string; extraDomains: string[] }) => [c.name, c.extraDomains])).toEqual([
      ['Contoso', []],
      ['Fabrikam', []],
    ]);
    const bad = await cli(['brand', 'create', '--org', String(org.id), '--entities-file', file, '--name', 'X'], env);
    expect(bad).toMatchObject({ code: 2 });
    writeFileSync(file, JSON.stringify([{ kind: 'competitor', name: 'Only', domains: ['only.example'] }]));
    expect((await cli(['brand', 'create', '--org', String(org.id), '--entities-file', file], env)).stderr).toMatch(/exactly one brand/);

    expect(await json(['brand', 'alias', 'add', '--brand', String(brand.id), '--alias', 'Northwind Co'])).toMatchObject({ aliases: ['NW', 'Northwind Co'] });
    expect(await json(['brand', 'alias', 'remove', '--brand', String(brand.id), '--alias', 'nw'])).toMatchObject({ aliases: ['Northwind Co'] });
    const competitor = brand.competitors[0].id as number;
    expect(await json(['competitor', 'domain', 'add', '--id', String(competitor), '--domain', 'https://www.contoso.co.uk/'])).toMatchObject({ extraDomains: ['contoso.co.uk'] });
    expect((await cli(['competitor', 'domain', 'add', '--id', '999999', '--domain', 'x.example'], env)).stderr).toMatch(/competitor 999999 does not exist/);
    const brands = await api.request({ url: `/api/v1/brands/${brand.id}`, key: org.key });
    expect(brands.body.data).toMatchObject({ aliases: ['Northwind Co'], extraDomains: ['northwind.de'] });

    // Answers recorded now cite review sites (the recorded source); then the brand claims them.
    const created = await api.request({ method: 'POST', url: '/api/v1/audit-requests', key: org.key, body: { brandId: brand.id, queries: ['best northwind alternative', 'northwind pricing', 'contoso vs northwind'] } });
    const runId = created.body.data.analysisRunId as number;
    await until(async () => {
      await api.projected(PROJECTIONS);
      return (await api.request({ url: `/api/v1/analysis-runs/${runId}`, key: org.key })).body.data.status === 'completed';
    }, 20_000, 'the run');
    await api.projected(PROJECTIONS);
    const cited: { domain: string }[] = await api.dataSource.query(`SELECT DISTINCT domain FROM answer_citations WHERE run_id = $1 AND owner = 'other' ORDER BY domain`, [runId]);
    expect(cited.length).toBeGreaterThan(0);
    const claimed = cited[0].domain;
    await json(['brand', 'domain', 'add', '--brand', String(brand.id), '--domain', claimed]);

    const today = new Date().toISOString().slice(0, 10);
    const report = await json(['answers', 'reanalyze', '--brand', String(brand.id), '--since', today]);
    expect(report).toMatchObject({ brandId: brand.id, since: today, answers: 12, engineVersion: expect.any(String) });
    expect(report.reanalysed).toBeGreaterThan(0);
    expect(report.reanalysed + report.unchanged).toBe(12);
    await api.projected(PROJECTIONS);
    const owners: { owner: string }[] = await api.dataSource.query(`SELECT DISTINCT owner FROM answer_citations WHERE run_id = $1 AND domain = $2`, [runId, claimed]);
    expect(owners).toEqual([{ owner: 'brand' }]);
    // Nothing changed since: a second pass appends nothing.
    expect(await json(['answers', 'reanalyze', '--brand', String(brand.id), '--since', today])).toMatchObject({ answers: 12, reanalysed: 0, unchanged: 12 });
    expect((await cli(['answers', 'reanalyze', '--brand', String(brand.id), '--since', '2026-02-30'], env)).code).toBe(2);
    expect((await cli(['answers', 'reanalyze', '--brand', '999999', '--since', today], env)).stderr).toMatch(/brand 999999 does not exist/);
  }, 300_000); // fourteen CLI processes, each a few seconds to start on a loaded 2-core machine

  it('rebuilds each analysis projection from zero equal to the live one, re-analyses included', async () => {
    const store = api.app.get<EventStore>(EVENT_STORE);
    await api.projected(PROJECTIONS);
    const tables: Record<string, string> = {
      analysis_runs: 'SELECT * FROM analysis_runs ORDER BY id',
      analysis_results: 'SELECT * FROM analysis_results ORDER BY id',
      answer_entities: 'SELECT * FROM answer_entities ORDER BY result_id, entity_id',
      answer_citations: 'SELECT * FROM answer_citations ORDER BY result_id, position',
      answer_usage: 'SELECT * FROM answer_usage ORDER BY result_id, call',
    };
    for (const projector of ANALYSIS_PROJECTORS) {
      const before = await Promise.all(projector.tables.map((t) => api.dataSource.query(tables[t])));
      await new ProjectionRebuilder(api.dataSource, store, 100).rebuild(projector);
      const after = await Promise.all(projector.tables.map((t) => api.dataSource.query(tables[t])));
      expect(after).toEqual(before);
      // Every table has rows to compare, but answer_usage: these answers come from the recorded source, which reports no tokens.
      if (projector.name !== 'answer_usage') expect(before[0].length).toBeGreaterThan(0);
    }
  });
});
