import { RunScheduler } from '@libs/analysis';
import { WorkerPartModule } from '../../apps/worker/src/worker.module';
import { startTestApi, type TestApi } from '../support/test-api';
import { until } from '../support/until';

/**
 * Audit requests to results over HTTP, with the worker in-process and every provider on the
 * recorded source (no API keys): the run's events, jobs, analysis and read models end to end.
 */
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ ANSWER_BACKOFF_MS: '50', ANALYSIS_SCHEDULER_POLL_MS: '86400000' }, [WorkerPartModule.forRoot()]);
});
afterAll(async () => {
  await api?.close();
});

const PROJECTIONS = ['analysis_runs', 'analysis_results', 'answer_entities', 'answer_citations'];

describe('analysis runs', () => {
  let org: { id: number; key: string };
  let other: { id: number; key: string };
  let brand: number;
  let clientBrand: number;
  let clientA: number;

  beforeAll(async () => {
    org = await api.organization();
    other = await api.organization();
    clientA = (await api.tenancy.createClient(org.id, 'Client A')).id;
    brand = (await api.tenancy.createBrand({ organizationId: org.id, name: 'Acme CRM', domain: 'acme-crm.com', competitors: [{ name: 'Globex', domain: 'globex.com' }, { name: 'Initech', domain: 'initech.com' }, { name: 'Umbrella', domain: 'umbrella.com' }] })).id;
    clientBrand = (await api.tenancy.createBrand({ organizationId: org.id, clientId: clientA, name: 'Hooli', domain: 'hooli.com', competitors: [{ name: 'Pied Piper', domain: 'piedpiper.com' }] })).id;
  });

  async function completed(runId: number, key = org.key) {
    let run: { status: string } = { status: 'queued' };
    await until(async () => {
      await api.projected(PROJECTIONS);
      run = (await api.request({ url: `/api/v1/analysis-runs/${runId}`, key })).body.data;
      return ['completed', 'partial', 'failed'].includes(run.status);
    }, 20_000, `run ${runId} ended`);
    await api.projected(PROJECTIONS);
    return run;
  }

  it('an audit request starts a run that ends completed with one analysed result per query and provider', async () => {
    const created = await api.request({ method: 'POST', url: '/api/v1/audit-requests', key: org.key, body: { brandId: brand, queries: ['best CRM for agencies', '  Acme CRM vs Globex '], providers: ['chatgpt', 'perplexity'] } });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({ id: expect.any(Number), analysisRunId: expect.any(Number), brandId: brand, queries: ['best CRM for agencies', 'Acme CRM vs Globex'], providers: ['chatgpt', 'perplexity'], country: null, language: null, status: 'queued', createdAt: expect.any(String) });
    const runId = created.body.data.analysisRunId as number;

    const run = await completed(runId);
    expect(run).toMatchObject({ id: runId, brandId: brand, trigger: 'api', status: 'completed', answersExpected: 4, answersRecorded: 4, answersFailed: 0, providers: ['chatgpt', 'perplexity'] });
    expect(run).toMatchObject({ startedAt: expect.any(String), completedAt: expect.any(String) });

    const results = await api.request({ url: `/api/v1/analysis-runs/${runId}/results?order=asc`, key: org.key });
    expect(results.status).toBe(200);
    expect(results.body.meta.total).toBe(4);
    expect(results.body.data.map((r: { query: string; provider: string }) => `${r.query}|${r.provider}`)).toEqual([
      'best CRM for agencies|chatgpt',
      'best CRM for agencies|perplexity',
      'Acme CRM vs Globex|chatgpt',
      'Acme CRM vs Globex|perplexity',
    ]);
    for (const r of results.body.data) {
      expect(r).toMatchObject({ runId, brandId: brand, status: 'answered', source: 'recorded', model: `recorded-${r.provider}`, error: null, engineVersion: expect.any(String) });
      expect(r.answer.length).toBeGreaterThan(20);
      // Every tracked entity is reported; what the analysis says agrees with the answer text.
      expect(r.entities.map((e: { name: string }) => e.name).sort()).toEqual(['Acme CRM', 'Globex', 'Initech', 'Umbrella']);
      for (const e of r.entities) expect(e.mentioned).toBe((r.answer as string).includes(e.name));
      expect(r.citations.map((c: { position: number }) => c.position)).toEqual(r.citations.map((_: unknown, k: number) => k + 1));
      for (const c of r.citations) if (c.domain === 'acme-crm.com') expect(c).toMatchObject({ owner: 'brand', entityId: `brand-${brand}` });
    }
    // The read models agree with the results.
    const [{ n }] = await api.dataSource.query(`SELECT count(*)::int AS n FROM answer_entities WHERE run_id = $1`, [runId]);
    expect(n).toBe(16);
    const listed = await api.request({ url: `/api/v1/analysis-runs?brandId=${brand}`, key: org.key });
    expect(listed.body.data.map((r: { id: number }) => r.id)).toContain(runId);
    const across = await api.request({ url: `/api/v1/analysis-results?brandId=${brand}&provider=perplexity`, key: org.key });
    expect(across.body.data.every((r: { provider: string }) => r.provider === 'perplexity')).toBe(true);
    expect(across.body.meta.total).toBe(2);
    const today = new Date().toISOString().slice(0, 10);
    expect((await api.request({ url: `/api/v1/analysis-results?brandId=${brand}&startDate=${today}&endDate=${today}`, key: org.key })).body.meta.total).toBe(4);
    expect((await api.request({ url: `/api/v1/analysis-results?brandId=${brand}&endDate=2020-01-01`, key: org.key })).body.meta.total).toBe(0);
  });

  it('records each answer exactly once', async () => {
    const created = await api.request({ method: 'POST', url: '/api/v1/audit-requests', key: org.key, body: { brandId: brand, queries: ['crm pricing'] } });
    const runId = created.body.data.analysisRunId as number;
    const run = await completed(runId);
    expect(run).toMatchObject({ answersExpected: 4, answersRecorded: 4, providers: ['chatgpt', 'claude', 'gemini', 'perplexity'] });
    const counts: { type: string; n: number }[] = await api.dataSource.query(
      `SELECT type, count(*)::int AS n FROM events WHERE stream_id LIKE $1 GROUP BY type ORDER BY type`,
      [`answer-${runId}-%`],
    );
    expect(counts).toEqual([
      { type: 'answer.analysed', n: 4 },
      { type: 'answer.recorded', n: 4 },
    ]);
  });

  it('refuses bad audit requests with 400 naming the field, and unknown or foreign brands with 404', async () => {
    const cases: [unknown, string][] = [
      [{ brandId: brand, queries: [] }, 'queries'],
      [{ brandId: brand }, 'queries'],
      [{ brandId: brand, queries: Array.from({ length: 101 }, (_, k) => `q${k}`) }, 'queries'],
      [{ brandId: brand, queries: ['x'.repeat(1001)] }, 'queries'],
      [{ brandId: brand, queries: [''] }, 'queries'],
      [{ brandId: brand, queries: [7] }, 'queries'],
      [{ brandId: brand, queries: ['ok'], providers: ['bing'] }, 'providers'],
      [{ brandId: brand, queries: ['ok'], providers: [] }, 'providers'],
      [{ brandId: 'abc', queries: ['ok'] }, 'brandId'],
      [{ brandId: 1.5, queries: ['ok'] }, 'brandId'],
      [{ queries: ['ok'] }, 'brandId'],
      [{ brandId: brand, queries: ['ok'], extra: true }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const r = await api.request({ method: 'POST', url: '/api/v1/audit-requests', key: org.key, body });
      expect([JSON.stringify(body).slice(0, 50), r.status]).toEqual([JSON.stringify(body).slice(0, 50), 400]);
      expect(r.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    const unknown = await api.request({ method: 'POST', url: '/api/v1/audit-requests', key: org.key, body: { brandId: 999999, queries: ['ok'] } });
    expect(unknown.status).toBe(404);
    const providers = await api.request({ method: 'POST', url: '/api/v1/audit-requests', key: org.key, body: { brandId: brand, queries: ['ok'], providers: ['bing'] } });
    expect(providers.body.error.details.fields[0].message).toMatch(/chatgpt, claude, gemini, perplexity/);
    expect((await api.request({ method: 'POST', url: '/api/v1/audit-requests', key: other.key, body: { brandId: brand, queries: ['ok'] } })).status).toBe(404);
  });

  it("another organisation's runs and results are 404, and a client-bound key sees only its client's brands' runs", async () => {
    const mine = await api.request({ method: 'POST', url: '/api/v1/audit-requests', key: org.key, body: { brandId: brand, queries: ['acme reviews'], providers: ['claude'] } });
    const theirs = await api.request({ method: 'POST', url: '/api/v1/audit-requests', key: org.key, body: { brandId: clientBrand, queries: ['hooli reviews'], providers: ['claude'] } });
    const runId = mine.body.data.analysisRunId as number;
    const clientRunId = theirs.body.data.analysisRunId as number;
    await completed(runId);
    await completed(clientRunId);
    expect((await api.request({ url: `/api/v1/analysis-runs/${runId}`, key: other.key })).status).toBe(404);
    expect((await api.request({ url: `/api/v1/analysis-runs/${runId}/results`, key: other.key })).status).toBe(404);
    expect((await api.request({ url: '/api/v1/analysis-runs', key: other.key })).body.meta.total).toBe(0);
    expect((await api.request({ url: '/api/v1/analysis-results', key: other.key })).body.meta.total).toBe(0);
    expect((await api.request({ url: `/api/v1/analysis-runs?brandId=${brand}`, key: other.key })).status).toBe(404);
    expect((await api.request({ url: `/api/v1/analysis-results?brandId=${brand}`, key: other.key })).status).toBe(404);

    const bound = await api.keys.create({ organizationId: org.id, scopes: ['read:analysis'], clientId: clientA });
    const runs = await api.request({ url: '/api/v1/analysis-runs', key: bound.key });
    expect(runs.body.data.map((r: { brandId: number }) => r.brandId)).toEqual([clientBrand]);
    expect((await api.request({ url: `/api/v1/analysis-runs/${runId}`, key: bound.key })).status).toBe(404);
    expect((await api.request({ url: `/api/v1/analysis-runs/${clientRunId}/results`, key: bound.key })).body.meta.total).toBe(1);
    const results = await api.request({ url: '/api/v1/analysis-results', key: bound.key });
    expect(results.body.data.every((r: { brandId: number }) => r.brandId === clientBrand)).toBe(true);
  });

  it("the scheduler runs a due brand's active prompts once a period (trigger schedule)", async () => {
    const b = (await api.tenancy.createBrand({ organizationId: org.id, name: 'Sched', domain: 'sched.example', competitors: [{ name: 'Rival', domain: 'rival.example' }] })).id;
    for (const query of ['sched pricing', 'best sched tool']) {
      expect((await api.request({ method: 'POST', url: `/api/v1/brands/${b}/prompts`, key: org.key, body: { query, providers: ['gemini'] } })).status).toBe(201);
    }
    expect((await api.request({ method: 'POST', url: `/api/v1/brands/${b}/prompts`, key: org.key, body: { query: 'parked', isActive: false } })).status).toBe(201);
    const scheduler = api.app.get(RunScheduler);
    const t0 = new Date('2030-01-01T06:00:00Z');
    const first = await scheduler.runDue(t0);
    const ofBrand = async (ids: number[]) => {
      const owned = await Promise.all(ids.map(async (id) => (await api.dataSource.query('SELECT 1 FROM events WHERE stream_id = $1 AND data @> $2', [`analysis-run-${id}`, { brandId: b }])).length > 0));
      return ids.filter((_, k) => owned[k]);
    };
    const mine = async (ids: number[]) => (await ofBrand(ids)).length;
    const [runId] = await ofBrand(first);
    expect(await mine(first)).toBe(1);
    // Concurrent schedulers (several worker processes) and a second poll the same day start nothing more.
    const again = await Promise.all([scheduler.runDue(t0), scheduler.runDue(new Date(t0.getTime() + 3_600_000))]);
    expect(await mine(again.flat())).toBe(0);
    const nextDay = await scheduler.runDue(new Date(t0.getTime() + 86_400_000));
    expect(await mine(nextDay)).toBe(1);
    const run = await completed(runId);
    expect(run).toMatchObject({ trigger: 'schedule', answersExpected: 2, queries: ['sched pricing', 'best sched tool'], providers: ['gemini'] });
    const results = await api.request({ url: `/api/v1/analysis-runs/${runId}/results`, key: org.key });
    expect(results.body.data.every((r: { promptId: number | null }) => typeof r.promptId === 'number')).toBe(true);
    // Weekly: not due a day later; off: never.
    await api.dataSource.query(`UPDATE brand_schedules SET schedule = 'weekly' WHERE brand_id = $1`, [b]);
    expect(await mine(await scheduler.runDue(new Date(t0.getTime() + 2 * 86_400_000)))).toBe(0);
    expect(await mine(await scheduler.runDue(new Date(t0.getTime() + 8 * 86_400_000)))).toBe(1);
    await api.dataSource.query(`UPDATE brand_schedules SET schedule = 'off' WHERE brand_id = $1`, [b]);
    expect(await mine(await scheduler.runDue(new Date(t0.getTime() + 30 * 86_400_000)))).toBe(0);
  });

  it('validates the list parameters', async () => {
    const sorted = await api.request({ url: '/api/v1/analysis-runs?sort=id&order=asc', key: org.key });
    expect(sorted.status).toBe(200);
    const ids = sorted.body.data.map((r: { id: number }) => r.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
    expect((await api.request({ url: '/api/v1/analysis-runs?sort=completedAt', key: org.key })).status).toBe(200);
    for (const url of ['/api/v1/analysis-runs?sort=constructor', '/api/v1/analysis-runs?sort=status', '/api/v1/analysis-runs?limit=0', '/api/v1/analysis-runs?limit=201', '/api/v1/analysis-runs?brandId=x', '/api/v1/analysis-runs/abc', '/api/v1/analysis-results?provider=bing', '/api/v1/analysis-results?startDate=2026-02-30', '/api/v1/analysis-results?startDate=2026-03-02&endDate=2026-03-01', '/api/v1/analysis-runs/1/results?offset=-1']) {
      const r = await api.request({ url, key: org.key });
      expect([url, r.status]).toEqual([url, 400]);
    }
    expect((await api.request({ url: '/api/v1/analysis-runs/999999', key: org.key })).status).toBe(404);
    const readOnly = await api.keys.create({ organizationId: org.id, scopes: ['read:analysis'] });
    expect((await api.request({ method: 'POST', url: '/api/v1/audit-requests', key: readOnly.key, body: { brandId: brand, queries: ['x'] } })).status).toBe(403);
  });
});
