import { RunScheduler } from '@libs/analysis';
import { WorkerPartModule } from '../../apps/worker/src/worker.module';
import { fakeProviderEnv, startFakeProviders, type FakeProvider, type FakeProviders } from '../support/fake-providers';
import { startTestApi, type TestApi } from '../support/test-api';
import { until } from '../support/until';

/**
 * A market per prompt (DESIGN §17, issue 32 part 3) through the four providers' local fakes and the
 * real SDK clients: the country and language of an audit request or a tracked prompt reach each
 * provider the way its API takes them, the answers and their read models carry their market, the
 * results filter by it, and a bad country or language is a 400 naming the field.
 */
let fakes: FakeProviders;
let api: TestApi;
let org: { id: number; key: string };
let brand: number;

beforeAll(async () => {
  fakes = await startFakeProviders();
  api = await startTestApi(
    {
      ...fakeProviderEnv(fakes),
      ANSWER_BACKOFF_MS: '100',
      ANSWER_ATTEMPTS: '2',
      ANSWER_TIMEOUT_MS: '5000',
      ANALYSIS_SCHEDULER_POLL_MS: '86400000',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    },
    [WorkerPartModule.forRoot()],
  );
  org = await api.organization();
  brand = (await api.tenancy.createBrand({ organizationId: org.id, name: 'Acme', domain: 'acme.com', competitors: [{ name: 'Globex', domain: 'globex.com' }, { name: 'Initech', domain: 'initech.io' }] })).id;
});
afterAll(async () => {
  await api?.close();
  await fakes?.close();
});

const all = (): FakeProvider[] => [fakes.openai, fakes.anthropic, fakes.gemini, fakes.perplexity];
beforeEach(() => {
  for (const f of all()) f.reset();
});

const PROJECTIONS = ['analysis_runs', 'analysis_results', 'answer_entities', 'answer_citations', 'answer_rollups', 'citation_records', 'prompt_answers', 'answer_changes', 'prompt_discoveries'];

async function ended(runId: number): Promise<Record<string, unknown>> {
  let run: Record<string, unknown> = {};
  await until(async () => {
    await api.projected(PROJECTIONS);
    run = (await api.request({ url: `/api/v1/analysis-runs/${runId}`, key: org.key })).body.data;
    return ['completed', 'partial', 'failed'].includes(run.status as string);
  }, 30_000, `run ${runId} ended`);
  await api.projected(PROJECTIONS);
  return run;
}

const results = async (query: string) => {
  const r = await api.request({ url: `/api/v1/analysis-results?brandId=${brand}&limit=200${query}`, key: org.key });
  expect(r.status).toBe(200);
  return r.body as { data: { runId: number; provider: string; country: string | null; language: string | null; query: string }[]; meta: { total: number } };
};

describe('a market per prompt', () => {
  let germanRun: number;
  let plainRun: number;

  it('an audit request with country=de and language=de-de reaches every provider with that market, normalised', async () => {
    const created = await api.request({ method: 'POST', url: '/api/v1/audit-requests', key: org.key, body: { brandId: brand, queries: ['best crm for agencies'], country: 'de', language: 'de-de' } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ country: 'DE', language: 'de-DE', queries: ['best crm for agencies'] });
    germanRun = created.body.data.analysisRunId;
    expect(await ended(germanRun)).toMatchObject({ status: 'completed', answersRecorded: 4 });

    // OpenAI: the web search tool's approximate user_location, the language in `instructions`.
    expect(fakes.openai.requests).toHaveLength(1);
    const openai = fakes.openai.requests[0];
    expect(openai.market.country).toBe('DE');
    expect((openai.body as { tools: unknown[] }).tools).toEqual([{ type: 'web_search', user_location: { type: 'approximate', country: 'DE' } }]);
    expect(openai.market.instruction).toContain('German (Germany) (de-DE)');
    // Anthropic: the web search tool's user_location, the language in `system`.
    const anthropic = fakes.anthropic.requests[0];
    expect((anthropic.body as { tools: unknown[] }).tools).toEqual([{ type: 'web_search_20250305', name: 'web_search', max_uses: 5, user_location: { type: 'approximate', country: 'DE' } }]);
    expect(anthropic.market).toMatchObject({ country: 'DE', instruction: expect.stringContaining('de-DE') });
    // Perplexity: web_search_options.user_location, search_language_filter (ISO 639-1) and a system message.
    const perplexity = fakes.perplexity.requests[0];
    expect((perplexity.body as { web_search_options: unknown }).web_search_options).toEqual({ user_location: { country: 'DE' } });
    expect(perplexity.market).toMatchObject({ country: 'DE', languageFilter: ['de'], instruction: expect.stringContaining('de-DE') });
    expect((perplexity.body as { messages: { role: string }[] }).messages.map((m) => m.role)).toEqual(['system', 'user']);
    // Gemini: no location parameter in Google Search grounding; the country and the language are in the system instruction.
    const gemini = fakes.gemini.requests[0];
    expect(gemini.market.country).toBeNull();
    expect(gemini.market.instruction).toContain('Germany (DE)');
    expect(gemini.market.instruction).toContain('de-DE');
    // Every provider was still asked the query itself.
    for (const f of all()) expect(JSON.stringify(f.requests[0].body)).toContain('best crm for agencies');
  });

  it('without a market the requests are as before: no location, no instruction', async () => {
    const created = await api.request({ method: 'POST', url: '/api/v1/audit-requests', key: org.key, body: { brandId: brand, queries: ['best crm for agencies'] } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ country: null, language: null });
    plainRun = created.body.data.analysisRunId;
    expect(await ended(plainRun)).toMatchObject({ status: 'completed', answersRecorded: 4 });
    for (const f of all()) {
      expect(f.requests[0].market).toEqual({ country: null, instruction: null, languageFilter: null });
      const body = f.requests[0].body as Record<string, unknown>;
      expect(body).not.toHaveProperty('instructions');
      expect(body).not.toHaveProperty('system');
      expect(body).not.toHaveProperty('systemInstruction');
      expect(body).not.toHaveProperty('web_search_options');
      expect(body).not.toHaveProperty('search_language_filter');
    }
    expect((fakes.openai.requests[0].body as { tools: unknown[] }).tools).toEqual([{ type: 'web_search' }]);
  });

  it('results carry their market and filter by country and language; the read models carry it too', async () => {
    const everything = await results('');
    expect(everything.meta.total).toBe(8);
    const de = await results('&country=DE');
    expect(de.meta.total).toBe(4);
    expect(de.data.every((r) => r.runId === germanRun && r.country === 'DE' && r.language === 'de-DE')).toBe(true);
    // Filters are normalised like the request fields (de → DE, de-de → de-DE).
    expect((await results('&country=de&language=de-de')).meta.total).toBe(4);
    expect((await results('&language=de-DE&provider=claude')).meta.total).toBe(1);
    expect((await results('&country=FR')).meta.total).toBe(0);
    const plain = everything.data.filter((r) => r.runId === plainRun);
    expect(plain.map((r) => [r.country, r.language])).toEqual([
      [null, null],
      [null, null],
      [null, null],
      [null, null],
    ]);

    // Every per-answer read model and the rollups carry the market of the answer.
    for (const table of ['answer_entities', 'answer_citations', 'citation_records', 'prompt_answers', 'change_answer_states', 'prompt_discoveries']) {
      const rows: { country: string | null; language: string | null }[] = await api.dataSource.query(`SELECT DISTINCT country, language FROM ${table} WHERE result_id LIKE $1`, [`${germanRun}-%`]);
      // Questions found in answers (prompt_discoveries) depend on the answer's text: there may be none.
      expect([table, rows.map((r) => [r.country, r.language])]).toEqual([table, table === 'prompt_discoveries' && rows.length === 0 ? [] : [['DE', 'de-DE']]]);
    }
    const cells: { country: string; language: string; answers: number }[] = await api.dataSource.query(
      `SELECT country, language, sum(answers)::int AS answers FROM answer_daily_rollups WHERE brand_id = $1 AND entity_id = $2 GROUP BY 1, 2 ORDER BY 1`,
      [brand, `brand-${brand}`],
    );
    expect(cells).toEqual([
      { country: '', language: '', answers: 4 },
      { country: 'DE', language: 'de-DE', answers: 4 },
    ]);
    // The same query in two markets is two series: no change compares the German answers with the others.
    const crossed: unknown[] = await api.dataSource.query(
      `SELECT c.id FROM answer_changes c JOIN analysis_results a ON a.id = c.result_id JOIN analysis_results b ON b.id = c.previous_result_id
        WHERE c.brand_id = $1 AND a.country IS DISTINCT FROM b.country`,
      [brand],
    );
    expect(crossed).toEqual([]);
  });

  it('every analytics read filters by country and language through the one answer filter; without them the figures are all markets together', async () => {
    const get = async (path: string, query = '') => {
      const r = await api.request({ url: `${path}?brandId=${brand}${query}`, key: org.key });
      expect([path, query, r.status]).toEqual([path, query, 200]);
      return r.body;
    };
    // AEO over the rollups: 8 answers in all, 4 asked for DE (de-DE), none for FR.
    const n = async (query: string) => (await get('/api/v1/aeo/metrics', query)).data.overall.mentionRate.n as number;
    expect([await n(''), await n('&country=DE'), await n('&country=de&language=de-de'), await n('&language=de-DE'), await n('&country=FR'), await n('&language=fr')]).toEqual([8, 4, 4, 4, 0, 0]);
    // Share of voice, GEO, sentiment, trends: the same answers, half of them.
    const sovAnswers = async (query: string) => ((await get('/api/v1/visibility/sov/latest', query)).data.providers as { answers: number }[]).map((x) => x.answers);
    expect(await sovAnswers('')).toEqual([2, 2, 2, 2]);
    expect(await sovAnswers('&country=DE')).toEqual([1, 1, 1, 1]);
    expect(await sovAnswers('&country=FR')).toEqual([]);
    expect((await get('/api/v1/geo/metrics', '&country=DE')).data.overall.visibilityShare.n).toBe(4);
    expect((await get('/api/v1/brand-index/latest', '&country=FR')).data.date).toBeNull();
    expect((await get('/api/v1/brand-index/latest', '&country=DE')).data.date).toBe(new Date().toISOString().slice(0, 10));
    // Citations' answer tables: every count halves with the market.
    const citations = async (path: string, query: string) => {
      const data = (await get(path, query)).data;
      return ((Array.isArray(data) ? data : data.domains) as { citations: number }[]).reduce((sum, x) => sum + x.citations, 0);
    };
    for (const path of ['/api/v1/citations/sources', '/api/v1/citation-sources/top']) {
      const [all, de, fr] = [await citations(path, ''), await citations(path, '&country=DE'), await citations(path, '&country=FR')];
      expect([path, all, de * 2, fr]).toEqual([path, all, all, 0]);
      expect(all).toBeGreaterThan(0);
    }
    const insights = async (query: string) => ((await get('/api/v1/prompts/insights', query)).data as { answers: number }[]).map((x) => x.answers);
    expect([await insights(''), await insights('&language=de-DE'), await insights('&language=pt-BR')]).toEqual([[8], [4], []]);
    // Every other read of analysed answers takes the filters and answers 200.
    for (const path of ['/api/v1/visibility/sov', '/api/v1/visibility/trends', '/api/v1/sentiment/by-provider', '/api/v1/sentiment/summary', '/api/v1/sentiment/trends', '/api/v1/citations/trends', '/api/v1/prompts/gaps', '/api/v1/prompts/discoveries', '/api/v1/prompts/trends', '/api/v1/changes', '/api/v1/changes/summary', '/api/v1/citation-sources/absences']) {
      await get(path, '&country=DE&language=de-DE');
    }
    // A bad value is a 400 naming the field on each of them.
    for (const path of ['/api/v1/aeo/metrics', '/api/v1/geo/metrics', '/api/v1/visibility/sov', '/api/v1/visibility/sov/latest', '/api/v1/visibility/trends', '/api/v1/brand-index/latest', '/api/v1/sentiment/by-provider', '/api/v1/sentiment/summary', '/api/v1/sentiment/trends', '/api/v1/citations/sources', '/api/v1/citations/trends', '/api/v1/citation-sources/top', '/api/v1/citation-sources/absences', '/api/v1/prompts/insights', '/api/v1/prompts/gaps', '/api/v1/prompts/discoveries', '/api/v1/prompts/trends', '/api/v1/changes', '/api/v1/changes/summary']) {
      for (const [field, value] of [['country', 'EU'], ['country', 'DEU'], ['language', 'zz'], ['language', 'de_DE']]) {
        const r = await api.request({ url: `${path}?brandId=${brand}&${field}=${value}`, key: org.key });
        expect([path, value, r.status, r.body.error?.code]).toEqual([path, value, 400, 'VALIDATION_ERROR']);
        expect(r.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
      }
    }
  });

  it('a tracked prompt with a market is its own prompt, and its scheduled run asks for that market', async () => {
    const add = (body: Record<string, unknown>) => api.request({ method: 'POST', url: `/api/v1/brands/${brand}/prompts`, key: org.key, body });
    const german = await add({ query: 'crm for small teams', providers: ['chatgpt', 'perplexity'], country: 'DE', language: 'de' });
    expect(german.status).toBe(201);
    expect(german.body.data).toMatchObject({ query: 'crm for small teams', country: 'DE', language: 'de' });
    // The same query without a market, or in another market, is another prompt; in the same market it is a duplicate.
    const plain = await add({ query: 'CRM for small teams', providers: ['claude'], isActive: false });
    expect(plain.status).toBe(201);
    expect(plain.body.data).toMatchObject({ country: null, language: null });
    expect((await add({ query: 'crm for small teams', country: 'AT', language: 'de', isActive: false })).status).toBe(201);
    const duplicate = await add({ query: 'CRM  for small teams', country: 'de', language: 'DE' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.details).toEqual({ promptId: german.body.data.id });
    // Clearing the market of the German prompt would make it the unmarketed one: 409; changing its language is fine.
    const url = `/api/v1/brands/${brand}/prompts/${german.body.data.id}`;
    expect((await api.request({ method: 'PATCH', url, key: org.key, body: { country: null, language: null } })).status).toBe(409);
    const changed = await api.request({ method: 'PATCH', url, key: org.key, body: { language: 'de-DE' } });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ country: 'DE', language: 'de-DE' });
    const listed = await api.request({ url: `/api/v1/brands/${brand}/prompts?limit=50`, key: org.key });
    expect(listed.body.data.map((p: { country: string | null }) => p.country).sort()).toEqual(['AT', 'DE', null]);

    const scheduler = api.app.get(RunScheduler);
    const started = await scheduler.runDue(new Date('2031-01-01T06:00:00Z'));
    const [runId] = (
      await Promise.all(started.map(async (id) => ((await api.dataSource.query('SELECT 1 FROM events WHERE stream_id = $1 AND data @> $2', [`analysis-run-${id}`, { brandId: brand }])).length ? id : null)))
    ).filter((id): id is number => id !== null);
    expect(await ended(runId)).toMatchObject({ status: 'completed', answersExpected: 2 });
    expect(fakes.openai.requests.map((r) => r.market.country)).toEqual(['DE']);
    expect(fakes.perplexity.requests.map((r) => r.market)).toEqual([{ country: 'DE', instruction: expect.stringContaining('de-DE'), languageFilter: ['de'] }]);
    expect(fakes.anthropic.requests).toHaveLength(0);
    const scheduled = await api.request({ url: `/api/v1/analysis-runs/${runId}/results`, key: org.key });
    expect(scheduled.body.data.map((r: { country: string; language: string; promptId: number }) => [r.country, r.language, r.promptId])).toEqual([
      ['DE', 'de-DE', german.body.data.id],
      ['DE', 'de-DE', german.body.data.id],
    ]);
  });

  it('refuses a bad country or language with 400 VALIDATION_ERROR naming the field, on every request that takes one', async () => {
    const badCountries: unknown[] = ['XX', 'DEU', 'EU', 'UK', 'D', '', 7, ['DE'], null];
    const badLanguages: unknown[] = ['de_DE', 'zz', 'qaa', 'en-x-private', 'en-u-ca-gregory', 'english!', 'x'.repeat(36), '', 7, null];
    const refused = async (method: 'POST' | 'PATCH' | 'GET', url: string, field: string, body?: unknown) => {
      const r = await api.request({ method, url, key: org.key, ...(body === undefined ? {} : { body }) });
      expect([url, JSON.stringify(body), r.status]).toEqual([url, JSON.stringify(body), 400]);
      expect(r.body.error.code).toBe('VALIDATION_ERROR');
      expect(r.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    };
    const prompt = (await api.request({ method: 'POST', url: `/api/v1/brands/${brand}/prompts`, key: org.key, body: { query: 'validation probe', isActive: false } })).body.data.id;
    for (const country of badCountries) {
      await refused('POST', '/api/v1/audit-requests', 'country', { brandId: brand, queries: ['q'], country });
      if (country !== null) await refused('POST', `/api/v1/brands/${brand}/prompts`, 'country', { query: 'q', country });
      if (country !== null) await refused('PATCH', `/api/v1/brands/${brand}/prompts/${prompt}`, 'country', { country });
      if (typeof country === 'string' && country !== '') await refused('GET', `/api/v1/analysis-results?country=${encodeURIComponent(country)}`, 'country');
    }
    for (const language of badLanguages) {
      await refused('POST', '/api/v1/audit-requests', 'language', { brandId: brand, queries: ['q'], language });
      if (language !== null) await refused('POST', `/api/v1/brands/${brand}/prompts`, 'language', { query: 'q', language });
      if (typeof language === 'string' && language !== '') await refused('GET', `/api/v1/analysis-results?language=${encodeURIComponent(language)}`, 'language');
    }
    await refused('GET', `/api/v1/analysis-results?country=`, 'country');
    // A repeated parameter is not one value.
    await refused('GET', `/api/v1/analysis-results?country=DE&country=FR`, 'country');
    // Nothing was asked or stored by the refused requests.
    for (const f of all()) expect(f.requests).toHaveLength(0);
  });
});
