import { WorkerPartModule } from '../../apps/worker/src/worker.module';
import { fakeProviderEnv, startFakeProviders, type FakeProviders } from '../support/fake-providers';
import { exited, startApp } from '../support/processes';
import { startTestApi, type TestApi } from '../support/test-api';
import { until } from '../support/until';

/**
 * Analysis runs against the four providers' wire formats (local fakes, the real SDK clients):
 * a full run, Retry-After, a provider down for the whole run, and a worker killed mid-run.
 */
let fakes: FakeProviders;
let api: TestApi;
let org: { id: number; key: string };
let brand: number;

function providerEnv(): Record<string, string> {
  return {
    ...fakeProviderEnv(fakes),
    ANSWER_BACKOFF_MS: '100',
    ANSWER_ATTEMPTS: '3',
    ANSWER_TIMEOUT_MS: '5000',
    ANALYSIS_SCHEDULER_POLL_MS: '86400000',
  };
}

beforeAll(async () => {
  fakes = await startFakeProviders();
  api = await startTestApi({ ...providerEnv(), LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent' }, [WorkerPartModule.forRoot()]);
  org = await api.organization();
  // The fakes' default answer names Acme, Globex and Initech and cites acme.com, globex.com and initech.io.
  brand = (await api.tenancy.createBrand({ organizationId: org.id, name: 'Acme', domain: 'acme.com', competitors: [{ name: 'Globex', domain: 'globex.com' }, { name: 'Initech', domain: 'initech.io' }, { name: 'Hooli', domain: 'hooli.com' }] })).id;
});
afterAll(async () => {
  await api?.close();
  await fakes?.close();
});
beforeEach(() => {
  for (const f of [fakes.openai, fakes.anthropic, fakes.gemini, fakes.perplexity]) f.reset();
});

const PROJECTIONS = ['analysis_runs', 'analysis_results', 'answer_entities', 'answer_citations'];

async function audit(queries: string[], providers?: string[]): Promise<number> {
  const r = await api.request({ method: 'POST', url: '/api/v1/audit-requests', key: org.key, body: { brandId: brand, queries, ...(providers && { providers }) } });
  expect(r.status).toBe(201);
  return r.body.data.analysisRunId as number;
}

async function ended(runId: number, ms = 30_000): Promise<Record<string, unknown>> {
  let run: Record<string, unknown> = {};
  await until(async () => {
    await api.projected(PROJECTIONS);
    run = (await api.request({ url: `/api/v1/analysis-runs/${runId}`, key: org.key })).body.data;
    return ['completed', 'partial', 'failed'].includes(run.status as string);
  }, ms, `run ${runId} ended`);
  await api.projected(PROJECTIONS);
  return run;
}

async function results(runId: number) {
  return (await api.request({ url: `/api/v1/analysis-runs/${runId}/results?limit=200&order=asc`, key: org.key })).body.data as {
    provider: string;
    status: string;
    source: string;
    model: string;
    error: string | null;
    entities: { name: string; mentioned: boolean }[];
    citations: { domain: string; owner: string }[];
  }[];
}

describe('analysis runs against the providers', () => {
  it('a run of 10 prompts x 4 providers completes with 40 live results whose mentions and citations match the answers', async () => {
    const runId = await audit(Array.from({ length: 10 }, (_, k) => `best tool number ${k}`));
    const run = await ended(runId);
    expect(run).toMatchObject({ status: 'completed', answersExpected: 40, answersRecorded: 40, answersFailed: 0 });
    const rows = await results(runId);
    expect(rows).toHaveLength(40);
    for (const r of rows) {
      expect(r).toMatchObject({ status: 'answered', source: 'live', error: null });
      const mentioned = Object.fromEntries(r.entities.map((e) => [e.name, e.mentioned]));
      expect([r.provider, mentioned]).toEqual([r.provider, { Acme: true, Globex: true, Initech: true, Hooli: false }]);
      expect([r.provider, r.citations.map((c) => [c.domain, c.owner])]).toEqual([
        r.provider,
        [
          ['acme.com', 'brand'],
          ['globex.com', 'competitor'],
          ['initech.io', 'competitor'],
        ],
      ]);
    }
    expect(fakes.openai.requests).toHaveLength(10);
    expect(fakes.gemini.requests).toHaveLength(10);
  });

  it('a 429 with Retry-After: 2 is asked again no sooner than 2 s later', async () => {
    fakes.anthropic.script({ status: 429, retryAfter: '2' });
    const runId = await audit(['retry me'], ['claude']);
    const run = await ended(runId);
    expect(run).toMatchObject({ status: 'completed', answersRecorded: 1 });
    expect(fakes.anthropic.arrivals).toHaveLength(2);
    expect(fakes.anthropic.arrivals[1] - fakes.anthropic.arrivals[0]).toBeGreaterThanOrEqual(2000);
  });

  it('a provider down for the whole run gives a partial run with its failures recorded', async () => {
    fakes.perplexity.script(...Array.from({ length: 20 }, () => ({ status: 503 })));
    fakes.gemini.script({ status: 400 });
    const runId = await audit(['down one', 'down two']);
    const run = await ended(runId);
    expect(run).toMatchObject({ status: 'partial', answersExpected: 8, answersRecorded: 5, answersFailed: 3 });
    const rows = await results(runId);
    const failed = rows.filter((r) => r.status === 'failed');
    expect(failed.map((r) => r.provider).sort()).toEqual(['gemini', 'perplexity', 'perplexity']);
    for (const r of failed) expect(r.error).toEqual(expect.any(String));
    // 503 is retried (3 attempts each); a 400 is not.
    expect(fakes.perplexity.requests).toHaveLength(6);
    expect(fakes.gemini.requests).toHaveLength(2);
  });

  it('hostile answers (huge text, broken markdown, 10,000 citations) are recorded and analysed within bounds, or failed with a reason', async () => {
    const many = Array.from({ length: 10_000 }, (_, k) => ({ url: `https://site${k}.example/page`, title: `Source ${k}` }));
    fakes.openai.setAnswer(() => ({ text: `Acme ${'[x'.repeat(20_000)} **Globex ${'`'.repeat(5000)} | a | b |\n|---|\n${'> '.repeat(5000)}`, citations: many }));
    fakes.perplexity.setAnswer(() => ({ text: 'Acme '.repeat(60_000), citations: [] }));
    const runId = await audit(['hostile'], ['chatgpt', 'perplexity']);
    const run = await ended(runId);
    expect(run).toMatchObject({ status: 'partial', answersRecorded: 1, answersFailed: 1 });
    const rows = await results(runId);
    const chatgpt = rows.find((r) => r.provider === 'chatgpt')!;
    expect(chatgpt).toMatchObject({ status: 'answered' });
    expect(chatgpt.entities.find((e) => e.name === 'Acme')?.mentioned).toBe(true);
    expect(chatgpt.citations.length).toBe(500);
    const perplexity = rows.find((r) => r.provider === 'perplexity')!;
    expect(perplexity).toMatchObject({ status: 'failed', error: expect.stringMatching(/more than 200000/) });
    // The worker is alive: the next run completes.
    fakes.openai.reset();
    fakes.perplexity.reset();
    expect(await ended(await audit(['after hostile'], ['chatgpt', 'perplexity']))).toMatchObject({ status: 'completed' });
  });

  it("checks answers against the brand's registered facts: contradictions kept with the answer, accuracy in AEO", async () => {
    const put = await api.request({ method: 'PUT', url: `/api/v1/brands/${brand}/facts`, key: org.key, body: { foundedYear: 2012, startingPrice: { amount: 10, currency: 'USD' }, headquarters: 'Berlin, Germany', productNames: ['Acme One'] } });
    expect(put.status).toBe(200);
    fakes.openai.setAnswer(() => ({ text: 'Acme was founded in 2005 and plans start at $10 a month. Globex was founded in 2012.', citations: [] }));
    fakes.anthropic.setAnswer(() => ({ text: 'Acme, headquartered in Berlin, is a fine pick.', citations: [] }));
    const runId = await audit(['acme facts'], ['chatgpt', 'claude']);
    await ended(runId);
    const rows = (await api.request({ url: `/api/v1/analysis-runs/${runId}/results?order=asc`, key: org.key })).body.data;
    expect(rows[0].claims.map((c: { fact: string; claimed: string; agrees: boolean }) => [c.fact, c.claimed, c.agrees])).toEqual([
      ['foundedYear', '2005', false],
      ['startingPrice', '$10', true],
    ]);
    expect(rows[1].claims.map((c: { fact: string; agrees: boolean }) => [c.fact, c.agrees])).toEqual([['headquarters', true]]);
    await api.projected(['answer_rollups']);
    const aeo = await api.request({ url: `/api/v1/aeo/metrics?brandId=${brand}`, key: org.key });
    // Only these two answers make claims: one contradicts a fact, one agrees.
    expect(aeo.body.data.overall.accuracy).toMatchObject({ value: 0.5, n: 2 });
  });

  it('a worker killed with SIGKILL mid-run and restarted leaves exactly one recorded answer per question', async () => {
    // An API without a worker on a database of its own; the worker runs as a child process.
    const killedApi = await startTestApi(providerEnv());
    const env = { ...providerEnv(), DATABASE_URL: killedApi.db.url, REDIS_PREFIX: killedApi.config.redisPrefix, LOG_LEVEL: 'error' };
    const sql = killedApi.dataSource;
    try {
      const o = await killedApi.organization();
      const b = (await killedApi.tenancy.createBrand({ organizationId: o.id, name: 'Acme', domain: 'acme.com', competitors: [{ name: 'Globex', domain: 'globex.com' }] })).id;
      for (const f of [fakes.openai, fakes.anthropic, fakes.gemini, fakes.perplexity]) f.setLatency(150);
      const created = await killedApi.request({ method: 'POST', url: '/api/v1/audit-requests', key: o.key, body: { brandId: b, queries: Array.from({ length: 10 }, (_, k) => `kill test ${k}`) } });
      const runId = created.body.data.analysisRunId as number;
      const recorded = async () => Number((await sql.query(`SELECT count(*)::int AS n FROM events WHERE type = 'answer.recorded' AND stream_id LIKE $1`, [`answer-${runId}-%`]))[0].n);
      for (let round = 0; round < 2; round++) {
        const worker = startApp('worker', env);
        await until(async () => (await recorded()) > round * 10 + 5, 60_000, `answers in round ${round}`);
        worker.kill('SIGKILL');
        await exited(worker);
      }
      for (const f of [fakes.openai, fakes.anthropic, fakes.gemini, fakes.perplexity]) f.setLatency(0);
      const worker = startApp('worker', env);
      await until(async () => (await sql.query(`SELECT 1 FROM events WHERE stream_id = $1 AND type = 'analysis_run.completed'`, [`analysis-run-${runId}`])).length > 0, 90_000, 'the run to complete after restarts');
      worker.kill('SIGTERM');
      await exited(worker);
      const perStream: { n: number }[] = await sql.query(
        `SELECT count(*)::int AS n FROM events WHERE stream_id LIKE $1 AND type IN ('answer.recorded', 'answer.failed') GROUP BY stream_id`,
        [`answer-${runId}-%`],
      );
      expect(perStream).toHaveLength(40);
      expect(perStream.every((s) => s.n === 1)).toBe(true);
      const [completed] = await sql.query(`SELECT data FROM events WHERE stream_id = $1 AND type = 'analysis_run.completed'`, [`analysis-run-${runId}`]);
      expect(completed.data).toMatchObject({ status: 'completed', answersRecorded: 40, answersFailed: 0 });
    } finally {
      await killedApi.close().catch(() => undefined);
    }
  }, 240_000);
});
