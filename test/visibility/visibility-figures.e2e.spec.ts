import { EVENT_STORE, ExpectedRevision, type EventStore } from '@libs/event-store';
import { addDays, utcDay, wilsonInterval } from '@libs/metrics';
import { ProjectionRebuilder } from '@libs/projection-engine';
import { answerRollupsProjector } from '@projections';
import { ANSWER_DAILY_ROLLUPS, ROLLUP_COUNTER_COLUMNS } from '@libs/visibility';
import { WorkerPartModule } from '../../apps/worker/src/worker.module';
import { cli } from '../support/cli';
import { startTestApi, type TestApi } from '../support/test-api';

/**
 * The DESIGN §14 figures against values computed by hand from a small fixture of analysed answers:
 * a brand and two competitors, two providers, three days of which the middle one has no answers.
 */
let api: TestApi;
let store: EventStore;
let org: { id: number; key: string };
let other: { id: number; key: string };
let brand: { id: number; competitors: { id: number }[] };
const today = utcDay(Date.now());
const D1 = addDays(today, -3);
const D2 = addDays(today, -2);
const D3 = addDays(today, -1);

interface E {
  mentions: number;
  rank: number | null;
  sentiment: 'positive' | 'neutral' | 'negative' | null;
  score: number | null;
  vis: number;
}
function entities(b: E, c1: E, c2: E) {
  const ids = [`brand-${brand.id}`, `competitor-${brand.competitors[0].id}`, `competitor-${brand.competitors[1].id}`];
  return [b, c1, c2].map((e, k) => ({
    entityId: ids[k],
    kind: k === 0 ? 'brand' : 'competitor',
    name: ['Acme', 'Globex', 'Initech'][k],
    mentioned: e.mentions > 0,
    mentions: e.mentions,
    rank: e.rank,
    sentiment: e.sentiment,
    sentimentScore: e.score,
    visibilityShare: e.vis,
  }));
}
const own = (owner: 'brand' | 'competitor' | 'other', k: number) => ({
  url: `https://x${k}.example/`,
  domain: `x${k}.example`,
  title: null,
  position: k,
  owner,
  entityId: owner === 'brand' ? `brand-${brand.id}` : owner === 'competitor' ? `competitor-${brand.competitors[0].id}` : null,
});
const none: E = { mentions: 0, rank: null, sentiment: null, score: null, vis: 0 };

/** The fixture's runs: one a day with answers (D1: 900, D3: 901). */
const runOf = (day: string) => (day === D1 ? 900 : 901);

async function analysed(n: number, day: string, provider: string, es: ReturnType<typeof entities>, citations: ReturnType<typeof own>[], expected = ExpectedRevision.noStream) {
  const runId = runOf(day);
  await store.appendToStream(
    `answer-${runId}-${n}`,
    [
      {
        type: 'answer.analysed',
        data: { runId, n, organizationId: org.id, brandId: brand.id, promptId: null, query: `q${n % 2}`, provider, askedAt: `${day}T08:00:00.000Z`, engineVersion: 'test', analysedAt: `${day}T08:00:01.000Z`, entities: es, citations },
      },
    ],
    expected,
  );
}

/** A run's lifecycle events (trigger `seed`: the dispatch reactor asks no engine for it); `ended` false leaves it running. */
async function run(runId: number, day: string, items: { n: number; provider: string }[], ended: boolean) {
  const events = [
    {
      type: 'analysis_run.requested',
      data: { runId, organizationId: org.id, brandId: brand.id, trigger: 'seed', auditRequestId: null, queries: ['q0', 'q1'], providers: ['chatgpt', 'claude'], items: items.map((i) => ({ ...i, promptId: null, query: `q${i.n % 2}` })), requestedAt: `${day}T07:59:00.000Z` },
    },
    { type: 'analysis_run.started', data: { runId, startedAt: `${day}T08:00:00.000Z` } },
    ...(ended ? [{ type: 'analysis_run.completed', data: { runId, status: 'completed', answersRecorded: items.length, answersFailed: 0, completedAt: `${day}T08:01:00.000Z` } }] : []),
  ];
  await store.appendToStream(`analysis-run-${runId}`, ended ? events.slice(-1) : events, ended ? ExpectedRevision.exact(1) : ExpectedRevision.noStream);
}

const PROJECTIONS = ['answer_rollups', 'analysis_runs'];
const get = async (url: string, key = org.key) => api.request({ url, key });

beforeAll(async () => {
  api = await startTestApi({ ANALYSIS_SCHEDULER_POLL_MS: '86400000' }, [WorkerPartModule.forRoot()]);
  store = api.app.get<EventStore>(EVENT_STORE);
  org = await api.organization();
  other = await api.organization();
  brand = await api.tenancy.createBrand({ organizationId: org.id, name: 'Acme', domain: 'acme.example', competitors: [{ name: 'Globex', domain: 'globex.example' }, { name: 'Initech', domain: 'initech.example' }] });
  // D1 chatgpt: the brand first, positive; Globex second.
  await analysed(1, D1, 'chatgpt', entities({ mentions: 2, rank: 1, sentiment: 'positive', score: 0.6, vis: 0.6 }, { mentions: 1, rank: 2, sentiment: 'neutral', score: 0, vis: 0.4 }, none), [own('brand', 1), own('other', 2)]);
  // D1 claude: the brand absent; no citations.
  await analysed(2, D1, 'claude', entities(none, { mentions: 2, rank: 1, sentiment: 'positive', score: 0.5, vis: 0.7 }, { mentions: 1, rank: 2, sentiment: 'negative', score: -0.4, vis: 0.3 }), []);
  // D3 chatgpt: the brand third, negative; a competitor's citation.
  await analysed(3, D3, 'chatgpt', entities({ mentions: 1, rank: 3, sentiment: 'negative', score: -0.5, vis: 0.2 }, { mentions: 1, rank: 1, sentiment: 'positive', score: 0.4, vis: 0.5 }, { mentions: 2, rank: 2, sentiment: 'neutral', score: 0, vis: 0.3 }), [own('competitor', 1)]);
  // D3 claude: the brand second, neutral; two of its own citations.
  // D1's run has ended; D3's is still running (completed in the sov/latest test).
  await run(900, D1, [{ n: 1, provider: 'chatgpt' }, { n: 2, provider: 'claude' }], false);
  await run(900, D1, [{ n: 1, provider: 'chatgpt' }, { n: 2, provider: 'claude' }], true);
  await run(901, D3, [{ n: 3, provider: 'chatgpt' }, { n: 4, provider: 'claude' }], false);
  await analysed(4, D3, 'claude', entities({ mentions: 1, rank: 2, sentiment: 'neutral', score: 0, vis: 0.5 }, { mentions: 1, rank: 1, sentiment: 'positive', score: 0.7, vis: 0.5 }, none), [own('brand', 1), own('brand', 2)]);
  await api.projected(PROJECTIONS);
});
afterAll(async () => {
  await api?.close();
});

const period = (extra = '') => `brandId=${brand.id}&startDate=${D1}&endDate=${D3}${extra}`;
const wilson = (k: number, n: number) => ({ value: k / n, n, low: wilsonInterval(k, n)!.low, high: wilsonInterval(k, n)!.high });

describe('visibility figures (DESIGN §14)', () => {
  it('AEO: mention rate with its Wilson interval, average position, top-3 rate; per provider', async () => {
    const r = await get(`/api/v1/aeo/metrics?${period()}`);
    expect(r.status).toBe(200);
    expect(r.body.data.overall.mentionRate).toEqual(wilson(3, 4));
    expect(r.body.data.overall.averagePosition).toEqual({ value: 2, n: 3 });
    expect(r.body.data.overall.top3Rate).toEqual(wilson(3, 3));
    expect(r.body.data.overall.accuracy).toEqual({ value: null, n: 0, low: null, high: null });
    const claude = r.body.data.providers.find((x: { provider: string }) => x.provider === 'claude');
    expect(claude.mentionRate).toEqual(wilson(1, 2));
    expect(claude.averagePosition).toEqual({ value: 2, n: 1 });
    expect(r.body.data.providers.map((x: { provider: string }) => x.provider)).toEqual(['chatgpt', 'claude']);
    const filtered = await get(`/api/v1/aeo/metrics?${period('&provider=chatgpt')}`);
    expect(filtered.body.data.overall.mentionRate).toEqual(wilson(2, 2));
  });

  it('GEO: visibility share, citation rate and citation share', async () => {
    const r = await get(`/api/v1/geo/metrics?${period()}`);
    expect(r.body.data.overall.visibilityShare.n).toBe(4);
    expect(r.body.data.overall.visibilityShare.value).toBeCloseTo((0.6 + 0 + 0.2 + 0.5) / 4, 10);
    expect(r.body.data.overall.citationRate).toEqual(wilson(2, 3));
    expect(r.body.data.overall.citationShare).toEqual({ value: 3 / 5, n: 5 });
  });

  it('share of voice adds up to 1 over the brand and its competitors, by provider and query', async () => {
    const r = await get(`/api/v1/visibility/sov?${period()}`);
    expect(r.status).toBe(200);
    expect(r.body.meta.total).toBe(2); // (chatgpt, q1): answers 1 and 3; (claude, q0): answers 2 and 4
    for (const item of r.body.data) {
      const sum = item.entries.reduce((a: number, e: { shareOfVoice: number | null }) => a + (e.shareOfVoice ?? 0), 0);
      expect(sum).toBeCloseTo(1, 10);
    }
    // chatgpt q1: Acme 2 + 1, Globex 1 + 1, Initech 0 + 2 mentions.
    const first = r.body.data.find((x: { provider: string; query: string }) => x.provider === 'chatgpt' && x.query === 'q1');
    expect(first.answers).toBe(2);
    expect(first.entries.map((e: { entity: { name: string }; mentions: number; shareOfVoice: number }) => [e.entity.name, e.mentions, e.shareOfVoice])).toEqual([
      ['Acme', 3, 3 / 7],
      ['Globex', 2, 2 / 7],
      ['Initech', 2, 2 / 7],
    ]);
    expect(first.entries[0].mentionRate).toEqual(wilson(2, 2));
    const paged = await get(`/api/v1/visibility/sov?${period('&limit=1&offset=1')}`);
    expect(paged.body.data.map((x: { provider: string }) => x.provider)).toEqual(['claude']);
    expect(paged.body.meta).toEqual({ total: 2, limit: 1, offset: 1, hasMore: false });
  });

  it('sov/latest names the day of the most recent complete run: not a run still in progress', async () => {
    const before = await get(`/api/v1/visibility/sov/latest?brandId=${brand.id}`);
    expect(before.body.data.date).toBe(D1);
    expect(before.body.data.providers.map((x: { provider: string; answers: number }) => [x.provider, x.answers])).toEqual([
      ['chatgpt', 1],
      ['claude', 1],
    ]);
    expect(before.body.data.providers[1].entries.map((e: { shareOfVoice: number }) => e.shareOfVoice)).toEqual([0, 2 / 3, 1 / 3]);
    await run(901, D3, [{ n: 3, provider: 'chatgpt' }, { n: 4, provider: 'claude' }], true);
    await api.projected(PROJECTIONS);
    const r = await get(`/api/v1/visibility/sov/latest?brandId=${brand.id}`);
    expect(r.body.data.date).toBe(D3);
    const chatgpt = r.body.data.providers.find((x: { provider: string }) => x.provider === 'chatgpt');
    expect(chatgpt.answers).toBe(1);
    expect(chatgpt.entries[0]).toMatchObject({ provider: 'chatgpt', entity: { id: `brand-${brand.id}`, name: 'Acme', kind: 'brand' }, mentions: 1, shareOfVoice: 1 / 4 });
  });

  it('daily series: every day present, the empty day with n: 0 and nulls', async () => {
    const r = await get(`/api/v1/visibility/trends?brandId=${brand.id}&days=4`);
    expect(r.status).toBe(200);
    const m = r.body.data.overall.mentionRate;
    expect(m.map((p: { date: string }) => p.date)).toEqual([D1, D2, D3, today]);
    expect(m[0]).toEqual({ date: D1, ...wilson(1, 2) });
    expect(m[1]).toEqual({ date: D2, value: null, n: 0, low: null, high: null });
    expect(m[2]).toEqual({ date: D3, ...wilson(2, 2) });
    expect(r.body.data.overall.shareOfVoice[0]).toEqual({ date: D1, value: 2 / 6, n: 6, low: null, high: null });
    expect(r.body.data.overall.averagePosition[2]).toEqual({ date: D3, value: 2.5, n: 2, low: null, high: null });
    // Every tracked entity's share of voice by day, with its interval: on D1 the brand 2, Globex 3, Initech 1 of 6 mentions.
    const byEntity = r.body.data.shareOfVoiceByEntity as { entity: { id: string; kind: string }; shareOfVoice: { date: string }[] }[];
    expect(byEntity.map((e) => e.entity.id)).toEqual([`brand-${brand.id}`, `competitor-${brand.competitors[0].id}`, `competitor-${brand.competitors[1].id}`]);
    expect(byEntity.map((e) => e.shareOfVoice[0])).toEqual([{ date: D1, ...wilson(2, 6) }, { date: D1, ...wilson(3, 6) }, { date: D1, ...wilson(1, 6) }]);
    expect(byEntity[0].shareOfVoice[1]).toEqual({ date: D2, value: null, n: 0, low: null, high: null });
  });

  it('sentiment: counts, net sentiment, mean score, by provider and by day', async () => {
    const s = await get(`/api/v1/sentiment/summary?${period()}`);
    expect(s.body.data).toMatchObject({ labelled: 3, positive: 1, neutral: 1, negative: 1, netSentiment: { value: 0, n: 3 }, positiveRate: wilson(1, 3) });
    expect(s.body.data.meanScore.value).toBeCloseTo((0.6 - 0.5 + 0) / 3, 10);
    const byProvider = await get(`/api/v1/sentiment/by-provider?${period()}`);
    expect(byProvider.body.data.map((x: { provider: string; netSentiment: { value: number } }) => [x.provider, x.netSentiment.value])).toEqual([
      ['chatgpt', 0],
      ['claude', 0],
    ]);
    const t = await get(`/api/v1/sentiment/trends?${period()}`);
    expect(t.body.data.netSentiment.map((p: { value: number | null; n: number }) => [p.value, p.n])).toEqual([
      [100, 1],
      [null, 0],
      [-50, 2],
    ]);
  });

  it('brand index: each component with its weight, contribution and n', async () => {
    const r = await get(`/api/v1/brand-index/latest?brandId=${brand.id}`);
    expect(r.body.data).toMatchObject({ date: D3, endDate: D3 });
    const c = Object.fromEntries(r.body.data.components.map((x: { name: string }) => [x.name, x]));
    expect(c.mentionRate).toMatchObject({ value: 75, n: 4, weight: 30 });
    expect(c.shareOfVoice.value).toBeCloseTo(100 / 3, 10);
    expect(c.netSentiment).toMatchObject({ value: 50, n: 3, weight: 15 });
    const expected = 0.3 * 75 + 0.25 * (100 / 3) + 0.15 * 50 + 0.2 * (200 / 3) + 0.1 * 32.5;
    expect(r.body.data.value).toBeCloseTo(expected, 8);
  });

  it("an organisation's own brand-index weights (CLI), and the visibility report as json, csv and a table", async () => {
    const env = { DATABASE_URL: api.db.url, REDIS_PREFIX: api.config.redisPrefix };
    const set = await cli(['--json', 'brand-index', 'weights', '--org', String(org.id), '--set', 'mentionRate=100,shareOfVoice=0,netSentiment=0,citationRate=0,visibilityShare=0'], env);
    expect(set).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(set.stdout)).toMatchObject({ custom: true, weights: { mentionRate: 100, shareOfVoice: 0 } });
    const index = await get(`/api/v1/brand-index/latest?brandId=${brand.id}`);
    expect(index.body.data.value).toBeCloseTo(75, 8);
    expect((await cli(['brand-index', 'weights', '--org', String(org.id), '--set', 'reach=5'], env)).stderr).toMatch(/unknown component "reach"/);
    expect((await cli(['brand-index', 'weights', '--org', String(org.id), '--set', 'mentionRate=0,shareOfVoice=0,netSentiment=0,citationRate=0,visibilityShare=0'], env)).code).toBe(2);
    expect(JSON.parse((await cli(['--json', 'brand-index', 'weights', '--org', String(org.id), '--reset'], env)).stdout)).toMatchObject({ custom: false, weights: { mentionRate: 30 } });

    const report = JSON.parse((await cli(['report', 'visibility', '--brand', String(brand.id), '--days', '4', '--format', 'json'], env)).stdout);
    expect(report).toMatchObject({ brandId: brand.id, startDate: D1, endDate: today });
    expect(report.rows[0]).toMatchObject({ provider: 'all', answers: 4, mentionRate: 0.75, averagePosition: 2, netSentiment: 0 });
    const csv = (await cli(['report', 'visibility', '--brand', String(brand.id), '--days', '4', '--format', 'csv'], env)).stdout.trim().split('\n');
    expect(csv[0].split(',')[0]).toBe('provider');
    expect(csv.map((l) => l.split(',')[0])).toEqual(['provider', 'all', 'chatgpt', 'claude']);
    const table = (await cli(['report', 'visibility', '--brand', String(brand.id), '--days', '4'], env)).stdout;
    expect(table).toMatch(/mention rate \(95% CI\)/);
    expect(table).toMatch(/75\.0%/);
    expect((await cli(['report', 'visibility', '--brand', String(brand.id), '--days', '366'], env)).code).toBe(2);
    expect((await cli(['report', 'visibility', '--brand', '999999'], env)).stderr).toMatch(/brand 999999 does not exist/);
  }, 420_000); // fourteen CLI processes, each compiling as it loads: about 20 s apiece on a loaded 2-core machine

  it('a re-analysis of a past answer corrects that day', async () => {
    const fixed = entities({ mentions: 1, rank: 3, sentiment: 'positive', score: 0.3, vis: 0.1 }, { mentions: 2, rank: 1, sentiment: 'positive', score: 0.5, vis: 0.6 }, { mentions: 1, rank: 2, sentiment: 'negative', score: -0.4, vis: 0.3 });
    await analysed(2, D1, 'claude', fixed, [], ExpectedRevision.exact(0));
    await api.projected(PROJECTIONS);
    const r = await get(`/api/v1/visibility/trends?brandId=${brand.id}&days=4`);
    expect(r.body.data.overall.mentionRate[0]).toEqual({ date: D1, ...wilson(2, 2) });
    const aeo = await get(`/api/v1/aeo/metrics?${period()}`);
    expect(aeo.body.data.overall.mentionRate).toEqual(wilson(4, 4));
    expect(aeo.body.data.overall.averagePosition).toEqual({ value: 9 / 4, n: 4 });
  });

  it('the rollups rebuilt from zero equal the live ones, re-analysis included', async () => {
    const read = () =>
      Promise.all([
        api.dataSource.query('SELECT * FROM answer_daily_rollups ORDER BY brand_id, day, provider, prompt_id, query, entity_id'),
        api.dataSource.query('SELECT * FROM answer_rollup_sources ORDER BY result_id'),
        api.dataSource.query('SELECT * FROM answer_daily_provider_rollups ORDER BY brand_id, day, provider, country, language, entity_id'),
      ]);
    const before = await read();
    await new ProjectionRebuilder(api.dataSource, store, 2).rebuild(answerRollupsProjector);
    expect(await read()).toEqual(before);
    expect(before[0].length).toBeGreaterThan(0);
    expect(before[2].length).toBeGreaterThan(0);
  });

  it('the provider rollups are the fine rollups summed over prompt and query (whole counters exactly, real ones to a rounding)', async () => {
    const key = 'brand_id, day, provider, country, language, entity_id';
    const summed = (table: string) =>
      api.dataSource.query(
        `SELECT ${key}, min(organization_id) AS organization_id, min(client_id) AS client_id,
                ${ROLLUP_COUNTER_COLUMNS.map((c) => (ANSWER_DAILY_ROLLUPS.columns[c] === 'integer' ? `sum(${c})::int AS ${c}` : `round(sum(${c})::numeric, 9)::float8 AS ${c}`)).join(', ')}
           FROM ${table} GROUP BY ${key} ORDER BY ${key}`,
      );
    const fine = await summed('answer_daily_rollups');
    expect(fine.length).toBeGreaterThan(0);
    expect(await summed('answer_daily_provider_rollups')).toEqual(fine);
  });

  it('a brand with no answers: 200 with n: 0 and null figures', async () => {
    const empty = await api.tenancy.createBrand({ organizationId: org.id, name: 'Quiet', domain: 'quiet.example' });
    const aeo = await get(`/api/v1/aeo/metrics?brandId=${empty.id}`);
    expect(aeo.status).toBe(200);
    expect(aeo.body.data.overall.mentionRate).toEqual({ value: null, n: 0, low: null, high: null });
    expect((await get(`/api/v1/visibility/sov/latest?brandId=${empty.id}`)).body.data).toEqual({ date: null, providers: [] });
    expect((await get(`/api/v1/brand-index/latest?brandId=${empty.id}`)).body.data.value).toBeNull();
  });

  it('clientId: the brand of that client only; another client or an unknown one is 404', async () => {
    const client = await api.tenancy.createClient(org.id, 'Client V');
    const clientBrand = await api.tenancy.createBrand({ organizationId: org.id, clientId: client.id, name: 'Hooli', domain: 'hooli.example' });
    expect((await get(`/api/v1/aeo/metrics?brandId=${clientBrand.id}&clientId=${client.id}`)).status).toBe(200);
    expect((await get(`/api/v1/aeo/metrics?brandId=${brand.id}&clientId=${client.id}`)).status).toBe(404);
    expect((await get(`/api/v1/aeo/metrics?brandId=${clientBrand.id}&clientId=999999`)).body.error.message).toMatch(/Client 999999/);
    expect((await get(`/api/v1/aeo/metrics?brandId=${clientBrand.id}&clientId=x`)).status).toBe(400);
    const bound = await api.keys.create({ organizationId: org.id, scopes: ['read:visibility', 'read:sentiment'], clientId: client.id });
    expect((await get(`/api/v1/geo/metrics?brandId=${clientBrand.id}`, bound.key)).status).toBe(200);
    expect((await get(`/api/v1/geo/metrics?brandId=${brand.id}`, bound.key)).status).toBe(404);
  });

  it('refuses bad input with 400 and foreign brands with 404', async () => {
    for (const url of [
      '/api/v1/aeo/metrics',
      '/api/v1/aeo/metrics?brandId=x',
      `/api/v1/aeo/metrics?brandId=${brand.id}&provider=bing`,
      `/api/v1/aeo/metrics?brandId=${brand.id}&startDate=2026-02-30`,
      `/api/v1/aeo/metrics?brandId=${brand.id}&startDate=2026-03-02&endDate=2026-03-01`,
      `/api/v1/aeo/metrics?brandId=${brand.id}&startDate=2025-01-01&endDate=2026-03-01`,
      `/api/v1/visibility/trends?brandId=${brand.id}&days=0`,
      `/api/v1/visibility/trends?brandId=${brand.id}&days=366`,
      `/api/v1/sentiment/trends?brandId=${brand.id}&endDate=yesterday`,
    ]) {
      const r = await get(url);
      expect([url, r.status]).toEqual([url, 400]);
      expect(r.body.error.details.fields.length).toBeGreaterThan(0);
    }
    for (const path of ['aeo/metrics', 'geo/metrics', 'visibility/sov', 'visibility/sov/latest', 'visibility/trends', 'brand-index/latest', 'sentiment/summary', 'sentiment/by-provider', 'sentiment/trends']) {
      expect([path, (await get(`/api/v1/${path}?brandId=${brand.id}`, other.key)).status]).toEqual([path, 404]);
    }
  });
});
