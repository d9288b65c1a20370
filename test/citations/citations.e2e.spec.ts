import { EVENT_STORE, ExpectedRevision, type EventStore } from '@libs/event-store';
import { addDays, utcDay, wilsonInterval } from '@libs/metrics';
import { ProjectionRebuilder } from '@libs/projection-engine';
import { CITATION_PROJECTORS } from '@projections';
import { WorkerPartModule } from '../../apps/worker/src/worker.module';
import { startTestApi, type TestApi } from '../support/test-api';

/**
 * Citation sources, citations, prompts and changes (issue 16, DESIGN §14) against values computed
 * by hand from a fixture of analysed answers: a brand (Acme) and two competitors (Globex, Initech),
 * three providers, two prompts, three days; a domain cited by one provider only (only-pplx), a
 * domain cited only beside competitors (rivalreview), the brand leaving the top 3 and losing a
 * citation (answer 4), the brand leaving an answer (answer 8).
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
const RUN = 901;

type Tone = 'positive' | 'neutral' | 'negative';
/** An entity in an answer: [rank, sentiment, score], or null when not mentioned. */
type E = [number, Tone, number] | null;
type Owner = 'brand' | 'c1' | 'other';

const B = () => `brand-${brand.id}`;
const C1 = () => `competitor-${brand.competitors[0].id}`;
const C2 = () => `competitor-${brand.competitors[1].id}`;

function entities(b: E, c1: E, c2: E) {
  return [
    [B(), 'brand', 'Acme', b],
    [C1(), 'competitor', 'Globex', c1],
    [C2(), 'competitor', 'Initech', c2],
  ].map(([entityId, kind, name, e]) => {
    const x = e as E;
    return { entityId, kind, name, mentioned: x !== null, mentions: x ? 1 : 0, rank: x ? x[0] : null, sentiment: x ? x[1] : null, sentimentScore: x ? x[2] : null, visibilityShare: x ? 0.5 : 0 };
  });
}

function citations(list: [string, Owner][]) {
  return list.map(([url, owner], k) => ({
    url,
    domain: new URL(url).hostname,
    title: `Title of ${url}`,
    position: k + 1,
    owner: owner === 'c1' ? 'competitor' : owner,
    entityId: owner === 'brand' ? B() : owner === 'c1' ? C1() : null,
  }));
}

const ACME = 'https://acme.example/pricing';
const G2 = 'https://g2.example/crm';
const G2ERP = 'https://g2.example/erp';
const RIVAL = 'https://rivalreview.example/top';
const RIVAL2 = 'https://rivalreview.example/other';
const RIVALERP = 'https://rivalreview.example/erp';
const PPLX = 'https://only-pplx.example/a';
const GLOBEX = 'https://globex.example/';

interface Answer {
  n: number;
  day: string;
  provider: string;
  query: string;
  b: E;
  c1: E;
  c2: E;
  cites: [string, Owner][];
  text?: string;
  raw?: string;
}

function answers(): Answer[] {
  return [
    { n: 1, day: D1, provider: 'chatgpt', query: 'q-crm', b: [1, 'positive', 0.6], c1: [2, 'neutral', 0], c2: null, cites: [[ACME, 'brand'], [G2, 'other']],
      text: 'Acme is a great CRM. Which CRM integrates with Gmail? Also consider Globex.\n\nRelated questions:\n- How much does Acme cost?\n- Is Globex better than Acme?' },
    { n: 2, day: D1, provider: 'claude', query: 'q-crm', b: null, c1: [1, 'positive', 0.5], c2: [2, 'negative', -0.4], cites: [[RIVAL, 'other'], [GLOBEX, 'c1']] },
    { n: 3, day: D1, provider: 'perplexity', query: 'q-crm', b: [2, 'neutral', 0], c1: [1, 'positive', 0.3], c2: null, cites: [[PPLX, 'other'], [G2, 'other']],
      text: 'Try Acme. What is the best CRM for startups?', raw: JSON.stringify({ related_questions: ['Which CRM integrates with Gmail?', 'What is the best CRM for startups'] }) },
    { n: 4, day: D3, provider: 'chatgpt', query: 'q-crm', b: [4, 'negative', -0.5], c1: [1, 'positive', 0.4], c2: [2, 'neutral', 0], cites: [[G2, 'other']],
      text: 'How much does Acme cost? It costs $10.\nWhat about support?' },
    { n: 5, day: D3, provider: 'claude', query: 'q-crm', b: null, c1: [1, 'positive', 0.5], c2: null, cites: [[RIVAL, 'other'], [RIVAL2, 'other']] },
    { n: 6, day: D3, provider: 'perplexity', query: 'q-crm', b: [1, 'positive', 0.8], c1: [2, 'neutral', 0], c2: null, cites: [[PPLX, 'other'], [ACME, 'brand']] },
    { n: 7, day: D2, provider: 'chatgpt', query: 'q-erp', b: [1, 'neutral', 0], c1: null, c2: null, cites: [[G2ERP, 'other']] },
    { n: 8, day: D3, provider: 'chatgpt', query: 'q-erp', b: null, c1: [1, 'positive', 0.2], c2: null, cites: [[RIVALERP, 'other']] },
  ];
}

function analysedEvent(a: Answer) {
  return {
    type: 'answer.analysed',
    data: { runId: RUN, n: a.n, organizationId: org.id, brandId: brand.id, promptId: null, query: a.query, provider: a.provider, askedAt: `${a.day}T08:00:00.000Z`, engineVersion: 'test', analysedAt: `${a.day}T08:00:01.000Z`, entities: entities(a.b, a.c1, a.c2), citations: citations(a.cites) },
  };
}

async function record(a: Answer): Promise<void> {
  const recorded = {
    type: 'answer.recorded',
    data: {
      runId: RUN, n: a.n, organizationId: org.id, brandId: brand.id, promptId: null, query: a.query, provider: a.provider, model: 'test', source: 'live', text: a.text ?? 'An answer.',
      providerCitations: a.cites.map(([url]) => ({ url, title: null })), usage: null, latencyMs: 10, askedAt: `${a.day}T08:00:00.000Z`, raw: a.raw ?? null,
    },
  };
  await store.appendToStream(`answer-${RUN}-${a.n}`, [recorded, analysedEvent(a)], ExpectedRevision.noStream);
}

const PROJECTIONS = CITATION_PROJECTORS.map((p) => p.name);
const get = async (url: string, key = org.key) => api.request({ url, key });
const wilson = (k: number, n: number) => ({ value: k / n, n, low: wilsonInterval(k, n)!.low, high: wilsonInterval(k, n)!.high });
const w = (age: number) => 0.5 ** (age / 7);
let webhookId: number;

beforeAll(async () => {
  api = await startTestApi({ ANALYSIS_SCHEDULER_POLL_MS: '86400000', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }, [WorkerPartModule.forRoot()]);
  store = api.app.get<EventStore>(EVENT_STORE);
  org = await api.organization();
  other = await api.organization();
  brand = await api.tenancy.createBrand({ organizationId: org.id, name: 'Acme', domain: 'acme.example', competitors: [{ name: 'Globex', domain: 'globex.example' }, { name: 'Initech', domain: 'initech.example' }] });
  const hook = await api.request({ method: 'POST', url: '/api/v1/webhooks', key: org.key, body: { url: 'http://127.0.0.1:9/changes', events: ['change.detected'] } });
  expect(hook.status).toBe(201);
  webhookId = hook.body.data.id;
  expect((await api.request({ method: 'POST', url: `/api/v1/brands/${brand.id}/prompts`, key: org.key, body: { query: 'is globex better than acme' } })).status).toBe(201);
  for (const a of answers()) await record(a);
  await api.projected(PROJECTIONS);
});
// Closing once hung here (a projector runner asked to stop between two subscriptions; fixed, docs/decisions.md "Known flaky"): the shutdown watch names any hook that holds it.
afterAll(async () => {
  await api?.close();
}, 180_000);

describe('citation sources (DESIGN §14 consensus and absences)', () => {
  it('ranks domains by recency-weighted citations × provider coverage, the top one 100', async () => {
    const r = await get(`/api/v1/citation-sources/top?brandId=${brand.id}&range=7`);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ startDate: addDays(today, -6), endDate: today, providersAsked: 3, totalDomains: 5 });
    // Ages at the end of the range (today): D1 3 days, D2 2, D3 1. Three providers asked.
    const raw: Record<string, number> = {
      'rivalreview.example': (w(3) + 3 * w(1)) * (2 / 3),
      'g2.example': (2 * w(3) + w(1) + w(2)) * (2 / 3),
      'acme.example': (w(3) + w(1)) * (2 / 3),
      'only-pplx.example': (w(3) + w(1)) * (1 / 3),
      'globex.example': w(3) * (1 / 3),
    };
    const top = raw['rivalreview.example'];
    const domains = r.body.data.domains;
    expect(domains.map((d: { domain: string }) => d.domain)).toEqual(['rivalreview.example', 'g2.example', 'acme.example', 'only-pplx.example', 'globex.example']);
    for (const d of domains) expect([d.domain, d.consensusScore]).toEqual([d.domain, expect.closeTo((raw[d.domain] / top) * 100, 9)]);
    const g2 = domains[1];
    expect(g2).toMatchObject({
      citations: 4,
      providerCoverage: 2 / 3,
      providers: [{ provider: 'chatgpt', citations: 3 }, { provider: 'perplexity', citations: 1 }],
      firstSeen: `${D1}T08:00:00.000Z`,
      lastSeen: `${D3}T08:00:00.000Z`,
      owner: { kind: 'other', entity: null },
      exampleUrls: [G2, G2ERP],
    });
    const pplx = domains.find((d: { domain: string }) => d.domain === 'only-pplx.example');
    expect(pplx).toMatchObject({ providerCoverage: 1 / 3, providers: [{ provider: 'perplexity', citations: 2 }] });
    expect(domains[2].owner).toEqual({ kind: 'brand', entity: { id: B(), name: 'Acme', kind: 'brand' } });
    expect(domains[4].owner).toEqual({ kind: 'competitor', entity: { id: C1(), name: 'Globex', kind: 'competitor' } });
    const limited = await get(`/api/v1/citation-sources/top?brandId=${brand.id}&range=7&limit=2`);
    expect(limited.body.data.domains).toHaveLength(2);
    expect(limited.body.data.totalDomains).toBe(5);
  });

  it('absences: domains cited where competitors are mentioned and the brand is not, by consensus × competitor density', async () => {
    const r = await get(`/api/v1/citation-sources/absences?brandId=${brand.id}&range=7&minScore=0`);
    expect(r.status).toBe(200);
    // rivalreview: cited in answers 2, 5, 8, all naming a competitor and not Acme (density 1); globex.example: answer 2 only (density 1).
    const rival = (w(3) + 3 * w(1)) * (2 / 3);
    const globex = w(3) * (1 / 3);
    expect(r.body.data.domains.map((d: { domain: string; absenceScore: number }) => [d.domain, d.absenceScore])).toEqual([
      ['rivalreview.example', 100],
      ['globex.example', expect.closeTo((globex / rival) * 100, 9)],
    ]);
    expect(r.body.data.domains[0]).toMatchObject({
      competitorDensity: 1,
      answersCiting: 3,
      competitorOnlyAnswers: 3,
      citations: 4,
      consensusScore: 100,
      competitors: [
        { entity: { id: C1(), name: 'Globex', kind: 'competitor' }, answers: 3 },
        { entity: { id: C2(), name: 'Initech', kind: 'competitor' }, answers: 1 },
      ],
      prompts: [
        { prompt: { id: null, query: 'q-crm' }, answers: 2 },
        { prompt: { id: null, query: 'q-erp' }, answers: 1 },
      ],
    });
    // The default minScore (50) drops globex.example (about 10.7).
    const byDefault = await get(`/api/v1/citation-sources/absences?brandId=${brand.id}&range=7`);
    expect(byDefault.body.data.minScore).toBe(50);
    expect(byDefault.body.data.domains.map((d: { domain: string }) => d.domain)).toEqual(['rivalreview.example']);
  });
});

describe('citation source records', () => {
  it('lists the cited URLs with counts and providers, filtered by provider, domain and owner', async () => {
    const period = `brandId=${brand.id}&startDate=${D1}&endDate=${D3}`;
    const r = await get(`/api/v1/citations/sources?${period}`);
    expect(r.status).toBe(200);
    expect(r.body.meta).toEqual({ total: 8, limit: 50, offset: 0, hasMore: false });
    expect(r.body.data[0]).toMatchObject({ url: G2, domain: 'g2.example', title: `Title of ${G2}`, citations: 3, answers: 3, providers: [{ provider: 'chatgpt', citations: 2 }, { provider: 'perplexity', citations: 1 }] });
    expect((await get(`/api/v1/citations/sources?${period}&owner=brand`)).body.data.map((s: { url: string }) => s.url)).toEqual([ACME]);
    expect((await get(`/api/v1/citations/sources?${period}&domain=rivalreview.example&sort=url&order=asc`)).body.data.map((s: { url: string }) => s.url)).toEqual([RIVALERP, RIVAL2, RIVAL]);
    const claude = await get(`/api/v1/citations/sources?${period}&provider=claude`);
    // Ties in citations: the later id first (ids follow the feed: globex.example's before rivalreview.example/other's).
    expect(claude.body.data.map((s: { url: string; citations: number }) => [s.url, s.citations])).toEqual([
      [RIVAL, 2],
      [RIVAL2, 1],
      [GLOBEX, 1],
    ]);
    const paged = await get(`/api/v1/citations/sources?${period}&limit=3&offset=6`);
    expect(paged.body.meta).toEqual({ total: 8, limit: 3, offset: 6, hasMore: false });
    expect(paged.body.data).toHaveLength(2);
    expect((await get(`/api/v1/citations/sources?${period}&offset=100`)).body.meta).toEqual({ total: 8, limit: 50, offset: 100, hasMore: false });
  });

  it('one source: its prompts, providers, first and last seen; another organisation gets 404', async () => {
    const list = await get(`/api/v1/citations/sources?brandId=${brand.id}&startDate=${D1}&endDate=${D3}&owner=brand`);
    const id = list.body.data[0].id;
    const r = await get(`/api/v1/citations/sources/${id}`);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      id,
      brandId: brand.id,
      url: ACME,
      domain: 'acme.example',
      owner: { kind: 'brand', entity: { id: B(), name: 'Acme', kind: 'brand' } },
      citations: 2,
      answers: 2,
      providers: [{ provider: 'chatgpt', citations: 1 }, { provider: 'perplexity', citations: 1 }],
      firstSeen: `${D1}T08:00:00.000Z`,
      lastSeen: `${D3}T08:00:00.000Z`,
      prompts: [{ prompt: { id: null, query: 'q-crm' }, citations: 2, answers: 2, lastSeen: `${D3}T08:00:00.000Z` }],
    });
    expect((await get(`/api/v1/citations/sources/${id}`, other.key)).status).toBe(404);
    expect((await get(`/api/v1/citations/sources/999999999`)).status).toBe(404);
    expect((await get(`/api/v1/citations/sources/abc`)).status).toBe(400);
  });

  it('trends: daily citation rate with its interval, and counts by owner; an empty day is n: 0 and nulls', async () => {
    const r = await get(`/api/v1/citations/trends?brandId=${brand.id}&days=4`);
    expect(r.status).toBe(200);
    expect(r.body.data.citationRate).toEqual([
      { date: D1, ...wilson(1, 3) },
      { date: D2, ...wilson(0, 1) },
      { date: D3, ...wilson(1, 4) },
      { date: today, value: null, n: 0, low: null, high: null },
    ]);
    expect(r.body.data.counts).toEqual([
      { date: D1, answers: 3, brand: 1, competitor: 1, other: 4, total: 6 },
      { date: D2, answers: 1, brand: 0, competitor: 0, other: 1, total: 1 },
      { date: D3, answers: 4, brand: 1, competitor: 0, other: 5, total: 6 },
      { date: today, answers: 0, brand: null, competitor: null, other: null, total: null },
    ]);
  });
});

describe('prompts', () => {
  const period = () => `brandId=${brand.id}&startDate=${D1}&endDate=${D3}`;

  it("insights: the brand's mention rate, position and sentiment per prompt, the leading competitor, the sources", async () => {
    const r = await get(`/api/v1/prompts/insights?${period()}`);
    expect(r.status).toBe(200);
    expect(r.body.meta).toEqual({ total: 2, limit: 50, offset: 0, hasMore: false });
    const [crm, erp] = r.body.data;
    expect(crm).toMatchObject({
      prompt: { id: null, query: 'q-crm' },
      answers: 6,
      mentionRate: wilson(4, 6),
      averagePosition: { value: 2, n: 4 },
      sentiment: { positive: 2, neutral: 1, negative: 1, netSentiment: { value: 25, n: 4 } },
      leadingCompetitor: { entity: { id: C1(), name: 'Globex', kind: 'competitor' }, mentionRate: wilson(6, 6) },
    });
    expect(crm.sentiment.meanScore.value).toBeCloseTo((0.6 + 0 - 0.5 + 0.8) / 4, 10);
    expect(crm.sources.map((s: { domain: string; citations: number }) => [s.domain, s.citations])).toEqual([
      ['g2.example', 3],
      ['rivalreview.example', 3],
      ['acme.example', 2],
      ['only-pplx.example', 2],
      ['globex.example', 1],
    ]);
    expect(erp).toMatchObject({ answers: 2, mentionRate: wilson(1, 2), averagePosition: { value: 1, n: 1 }, leadingCompetitor: { mentionRate: wilson(1, 2) } });
    const sorted = await get(`/api/v1/prompts/insights?${period()}&sort=mentionRate&order=asc&limit=1`);
    expect(sorted.body.data.map((x: { prompt: { query: string } }) => x.prompt.query)).toEqual(['q-erp']);
    expect(sorted.body.meta.hasMore).toBe(true);
    const claude = await get(`/api/v1/prompts/insights?${period()}&provider=claude`);
    expect(claude.body.data).toHaveLength(1);
    expect(claude.body.data[0]).toMatchObject({ answers: 2, mentionRate: wilson(0, 2), averagePosition: { value: null, n: 0 }, leadingCompetitor: { entity: { name: 'Globex' }, mentionRate: wilson(2, 2) } });
  });

  it('gaps: prompts where a competitor is mentioned and the brand is not, with the competitors and their sources', async () => {
    const r = await get(`/api/v1/prompts/gaps?${period()}`);
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(2);
    expect(r.body.data[0]).toMatchObject({
      prompt: { id: null, query: 'q-crm' },
      answers: 6,
      gapAnswers: 2,
      gapRate: wilson(2, 6),
      brandMentionRate: wilson(4, 6),
      competitors: [
        { entity: { name: 'Globex' }, mentionRate: wilson(6, 6), gapAnswers: 2 },
        { entity: { name: 'Initech' }, mentionRate: wilson(2, 6), gapAnswers: 1 },
      ],
      sources: [
        { domain: 'rivalreview.example', owner: { kind: 'other', entity: null }, citations: 3 },
        { domain: 'globex.example', owner: { kind: 'competitor', entity: { name: 'Globex' } }, citations: 1 },
      ],
    });
    expect(r.body.data[1]).toMatchObject({ prompt: { query: 'q-erp' }, answers: 2, gapAnswers: 1, gapRate: wilson(1, 2), sources: [{ domain: 'rivalreview.example', citations: 1 }] });
  });

  it('discoveries: follow-up questions and questions in answers, not the tracked prompts, with where and how often', async () => {
    const r = await get(`/api/v1/prompts/discoveries?brandId=${brand.id}&days=30`);
    expect(r.status).toBe(200);
    expect(r.body.data.map((d: { question: string; occurrences: number; answers: number; providers: string[] }) => [d.question, d.occurrences, d.answers, d.providers])).toEqual([
      ['How much does Acme cost?', 2, 2, ['chatgpt']],
      ['Which CRM integrates with Gmail?', 2, 2, ['chatgpt', 'perplexity']],
      ['What is the best CRM for startups?', 2, 1, ['perplexity']],
      ['What about support?', 1, 1, ['chatgpt']],
    ]);
    expect(r.body.data[0].foundIn).toEqual([
      { origin: 'follow_up', occurrences: 1 },
      { origin: 'answer_text', occurrences: 1 },
    ]);
    expect(r.body.data[1]).toMatchObject({ prompts: ['q-crm'], firstSeen: `${D1}T08:00:00.000Z`, lastSeen: `${D1}T08:00:00.000Z` });
  });

  it("discoveries: the brand's Search Console queries of the period (channels' read model), impressions as occurrences, merged with the answers' and de-duplicated against tracked prompts; tenancy", async () => {
    // Rows as the Search Console sync writes them (channel_content_daily, channel 'search_console'), for this brand, another brand and no brand.
    const sc = async (organizationId: number, brandId: number) => {
      // A channel belongs to a client: the brand's, or one made for the fixture's brands that have none.
      const [{ client_id: ofBrand }] = await api.dataSource.query(`SELECT client_id FROM brands WHERE id = $1`, [brandId]);
      const clientId = ofBrand ?? (await api.tenancy.createClient(organizationId, 'Search Console client')).id;
      const [{ id }] = await api.dataSource.query(
        `INSERT INTO channels (organization_id, client_id, kind, name, brand_id, site_url) VALUES ($1, $2, 'search_console', 'SC', $3, 'sc-domain:x.example') RETURNING id`,
        [organizationId, clientId, brandId],
      );
      return async (brand: number | null, day: string, page: string, query: string, impressions: number | null, clicks: number | null) =>
        api.dataSource.query(
          `INSERT INTO channel_content_daily (organization_id, client_id, channel_id, channel, brand_id, day, page, query, impressions, clicks) VALUES ($1, $2, $3, 'search_console', $4, $5, $6, $7, $8, $9)`,
          [organizationId, clientId, id, brand, day, page, query, impressions, clicks],
        );
    };
    const second = await api.tenancy.createBrand({ organizationId: org.id, name: 'Acme Two', domain: 'acme-two.example' });
    const row = await sc(org.id, brand.id);
    await row(brand.id, D1, '/pricing', 'acme pricing', 100, 10);
    await row(brand.id, D2, '/plans', 'acme pricing', 50, 5);
    await row(brand.id, D3, '/pricing', 'ACME pricing!', 10, null); // the same key: one candidate
    await row(brand.id, D2, '/pricing', 'how much does acme cost', 40, 4); // an answer's candidate too: merged
    await row(brand.id, D2, '/vs', 'Is Globex better than Acme?', 500, 50); // tracked: left out
    await row(brand.id, D2, '/', '', 900, 90); // page row, no query
    await row(brand.id, addDays(today, -40), '/old', 'acme old query', 999, 9); // out of the period
    await row(null, D2, '/', 'no brand query', 999, 9);
    await row(second.id, D2, '/', 'second brand query', 999, 9);
    const otherBrand = await api.tenancy.createBrand({ organizationId: other.id, name: 'Acme', domain: 'acme.example' });
    await (await sc(other.id, otherBrand.id))(otherBrand.id, D2, '/', 'other organisation query', 70, 7);

    const r = await get(`/api/v1/prompts/discoveries?brandId=${brand.id}&days=30`);
    expect(r.status).toBe(200);
    expect(r.body.data.map((d: { question: string; occurrences: number; answers: number; providers: string[] }) => [d.question, d.occurrences, d.answers, d.providers])).toEqual([
      ['How much does Acme cost?', 42, 2, ['chatgpt']],
      ['Which CRM integrates with Gmail?', 2, 2, ['chatgpt', 'perplexity']],
      ['What is the best CRM for startups?', 2, 1, ['perplexity']],
      ['What about support?', 1, 1, ['chatgpt']],
      ['acme pricing', 160, 0, []],
    ]);
    expect(r.body.data[0].foundIn).toEqual([
      { origin: 'follow_up', occurrences: 1 },
      { origin: 'answer_text', occurrences: 1 },
      { origin: 'search_console', occurrences: 40, clicks: 4 },
    ]);
    expect(r.body.data[4]).toEqual({ question: 'acme pricing', occurrences: 160, answers: 0, foundIn: [{ origin: 'search_console', occurrences: 160, clicks: 15 }], providers: [], prompts: [], firstSeen: `${D1}T00:00:00.000Z`, lastSeen: `${D3}T00:00:00.000Z` });
    // The limit holds over the merged list; a provider filter is about answers, so no query is a candidate.
    expect((await get(`/api/v1/prompts/discoveries?brandId=${brand.id}&days=30&limit=1`)).body.data.map((d: { question: string }) => d.question)).toEqual(['How much does Acme cost?']);
    expect((await get(`/api/v1/prompts/discoveries?brandId=${brand.id}&startDate=${D2}&endDate=${D2}&provider=chatgpt`)).body.data).toEqual([]);
    const d2 = await get(`/api/v1/prompts/discoveries?brandId=${brand.id}&startDate=${D2}&endDate=${D2}`);
    expect(d2.body.data.map((d: { question: string; occurrences: number }) => [d.question, d.occurrences])).toEqual([
      ['acme pricing', 50],
      ['how much does acme cost', 40],
    ]);
    // Each brand sees its own queries only; another organisation's brand is 404.
    expect((await get(`/api/v1/prompts/discoveries?brandId=${second.id}`)).body.data.map((d: { question: string }) => d.question)).toEqual(['second brand query']);
    expect((await get(`/api/v1/prompts/discoveries?brandId=${otherBrand.id}`, other.key)).body.data.map((d: { question: string }) => d.question)).toEqual(['other organisation query']);
    expect((await get(`/api/v1/prompts/discoveries?brandId=${otherBrand.id}`)).status).toBe(404);
    expect((await get(`/api/v1/prompts/discoveries?brandId=${brand.id}`, other.key)).status).toBe(404);
  });

  it('trends: daily series per prompt, every day present', async () => {
    const r = await get(`/api/v1/prompts/trends?${period()}`);
    expect(r.status).toBe(200);
    const [crm, erp] = r.body.data.prompts;
    expect(crm.prompt.query).toBe('q-crm');
    expect(crm.mentionRate).toEqual([
      { date: D1, ...wilson(2, 3) },
      { date: D2, value: null, n: 0, low: null, high: null },
      { date: D3, ...wilson(2, 3) },
    ]);
    expect(crm.averagePosition.map((p: { value: number | null; n: number }) => [p.value, p.n])).toEqual([
      [1.5, 2],
      [null, 0],
      [2.5, 2],
    ]);
    expect(erp.gapRate.map((p: { value: number | null }) => p.value)).toEqual([null, 0, 1]);
  });
});

describe('changes (DESIGN §14)', () => {
  const period = () => `brandId=${brand.id}&startDate=${D1}&endDate=${D3}`;
  const key = (c: { answer: { id: string }; changeType: string; severity: string; entity: { name: string }; domain: string | null }) =>
    `${c.answer.id} ${c.changeType} ${c.severity} ${c.entity.name}${c.domain ? ` ${c.domain}` : ''}`;
  const EXPECTED = [
    // answer 4 after answer 1 (chatgpt, q-crm): rank 1 → 4, positive → negative, acme.example no longer cited, Initech enters ahead.
    `${RUN}-4 dropped_from_top3 high Acme`,
    `${RUN}-4 sentiment_changed high Acme`,
    `${RUN}-4 citation_lost medium Acme acme.example`,
    `${RUN}-4 competitor_entered medium Initech`,
    // answer 6 after answer 3 (perplexity, q-crm): rank 2 → 1, neutral → positive, acme.example cited.
    `${RUN}-6 rank_changed low Acme`,
    `${RUN}-6 sentiment_changed low Acme`,
    `${RUN}-6 citation_gained low Acme acme.example`,
    // answer 8 after answer 7 (chatgpt, q-erp): Acme gone, Globex in.
    `${RUN}-8 mention_lost high Acme`,
    `${RUN}-8 dropped_from_top3 high Acme`,
    `${RUN}-8 competitor_entered medium Globex`,
  ];

  it('every change type of the fixture, with the two answers, the prompt, the provider and the severity', async () => {
    const r = await get(`/api/v1/changes?${period()}&limit=200`);
    expect(r.status).toBe(200);
    expect(r.body.meta.total).toBe(10);
    expect(r.body.data.map(key).sort()).toEqual([...EXPECTED].sort());
    const dropped = r.body.data.find((c: { answer: { id: string }; changeType: string }) => c.answer.id === `${RUN}-4` && c.changeType === 'dropped_from_top3');
    expect(dropped).toEqual({
      id: `${RUN}-4:dropped_from_top3:${B()}`,
      brandId: brand.id,
      changeType: 'dropped_from_top3',
      severity: 'high',
      provider: 'chatgpt',
      prompt: { id: null, query: 'q-crm' },
      entity: { id: B(), name: 'Acme', kind: 'brand' },
      domain: null,
      before: { mentioned: true, rank: 1, sentiment: 'positive' },
      after: { mentioned: true, rank: 4, sentiment: 'negative' },
      previousAnswer: { id: `${RUN}-1`, askedAt: `${D1}T08:00:00.000Z` },
      answer: { id: `${RUN}-4`, askedAt: `${D3}T08:00:00.000Z` },
      detectedAt: `${D3}T08:00:00.000Z`,
    });
    const high = await get(`/api/v1/changes?${period()}&severity=high&changeType=dropped_from_top3,mention_lost`);
    expect(high.body.data.map(key).sort()).toEqual([`${RUN}-4 dropped_from_top3 high Acme`, `${RUN}-8 dropped_from_top3 high Acme`, `${RUN}-8 mention_lost high Acme`]);
    const bySeverity = await get(`/api/v1/changes?${period()}&sort=severity&order=asc&limit=3`);
    expect(bySeverity.body.data.map((c: { severity: string }) => c.severity)).toEqual(['low', 'low', 'low']);
    expect((await get(`/api/v1/changes?${period()}&provider=perplexity`)).body.meta.total).toBe(3);
  });

  it('summary: counts by type and severity', async () => {
    const r = await get(`/api/v1/changes/summary?brandId=${brand.id}&days=30`);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ total: 10, bySeverity: { low: 3, medium: 3, high: 4 } });
    const byType = Object.fromEntries(r.body.data.byType.map((t: { changeType: string; total: number }) => [t.changeType, t.total]));
    expect(byType).toEqual({ mention_gained: 0, mention_lost: 1, entered_top3: 0, dropped_from_top3: 2, rank_changed: 1, citation_gained: 1, citation_lost: 1, sentiment_changed: 2, competitor_entered: 2 });
  });

  it('sends change.detected webhooks whose data is the change record, listed by GET /webhooks/events', async () => {
    const events = await get('/api/v1/webhooks/events');
    expect(events.body.data).toContain('change.detected');
    const rows: { event_type: string; body: string }[] = await api.dataSource.query(`SELECT event_type, body FROM webhook_deliveries WHERE webhook_id = $1`, [webhookId]);
    expect(rows).toHaveLength(10);
    const list = await get(`/api/v1/changes?${period()}&limit=200`);
    const byId = new Map(list.body.data.map((c: { id: string }) => [c.id, c]));
    for (const row of rows) {
      const body = JSON.parse(row.body);
      expect(row.event_type).toBe('change.detected');
      expect(body.type).toBe('change.detected');
      expect(body.data).toEqual(byId.get(body.data.id));
    }
  });

  it('a re-analysis recomputes its changes and the next answer’s, and sends only the new ones', async () => {
    // Answer 4 re-analysed: Acme third (still top 3), neutral; answer 1 → 4 is now a rank change.
    const a4 = answers().find((a) => a.n === 4)!;
    await store.appendToStream(`answer-${RUN}-4`, [analysedEvent({ ...a4, b: [3, 'neutral', 0] })], ExpectedRevision.exact(1));
    // A late answer between 1 and 4 (D2, chatgpt, q-crm), where Acme is absent.
    await record({ n: 9, day: D2, provider: 'chatgpt', query: 'q-crm', b: null, c1: [1, 'positive', 0.5], c2: null, cites: [[G2, 'other']] });
    await api.projected(PROJECTIONS);
    const chatgpt = await get(`/api/v1/changes?${period()}&provider=chatgpt&limit=200`);
    expect(chatgpt.body.data.map(key).sort()).toEqual(
      [
        // 1 → 9: Acme gone, citation gone.
        `${RUN}-9 mention_lost high Acme`,
        `${RUN}-9 dropped_from_top3 high Acme`,
        `${RUN}-9 citation_lost medium Acme acme.example`,
        // 9 → 4: Acme back in third place, Initech enters ahead of it.
        `${RUN}-4 mention_gained low Acme`,
        `${RUN}-4 entered_top3 low Acme`,
        `${RUN}-4 competitor_entered medium Initech`,
        `${RUN}-8 mention_lost high Acme`,
        `${RUN}-8 dropped_from_top3 high Acme`,
        `${RUN}-8 competitor_entered medium Globex`,
      ].sort(),
    );
    const rows: { body: string }[] = await api.dataSource.query(`SELECT body FROM webhook_deliveries WHERE webhook_id = $1`, [webhookId]);
    const ids = rows.map((x) => JSON.parse(x.body).data.id as string);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining([`${RUN}-9:mention_lost:${B()}`, `${RUN}-4:mention_gained:${B()}`]));
    expect(ids.filter((id) => id === `${RUN}-4:competitor_entered:${C2()}`)).toHaveLength(1);
  });

  it('every read model rebuilt from zero equals the live one', async () => {
    const tables: Record<string, string> = {
      citation_records: 'result_id, position',
      citation_sources: 'id',
      prompt_answers: 'result_id',
      citation_daily_rollups: 'brand_id, day, provider, country, language',
      answer_changes: 'id',
      change_answer_states: 'result_id',
      prompt_discoveries: 'result_id, question_key, origin',
    };
    const read = () => Promise.all(Object.entries(tables).map(([t, order]) => api.dataSource.query(`SELECT * FROM ${t} ORDER BY ${order}`)));
    const before = await read();
    for (const projector of CITATION_PROJECTORS) await new ProjectionRebuilder(api.dataSource, store, 3).rebuild(projector);
    expect(await read()).toEqual(before);
    for (const rows of before) expect(rows.length).toBeGreaterThan(0);
  });
});

describe('tenancy, client-bound keys and bad input', () => {
  const PATHS = ['citation-sources/top', 'citation-sources/absences', 'citations/sources', 'citations/trends', 'prompts/insights', 'prompts/gaps', 'prompts/discoveries', 'prompts/trends', 'changes', 'changes/summary'];

  it("another organisation's brand is 404 on every endpoint", async () => {
    for (const path of PATHS) expect([path, (await get(`/api/v1/${path}?brandId=${brand.id}`, other.key)).status]).toEqual([path, 404]);
  });

  it('a client-bound key sees its client’s brand only; clientId is checked', async () => {
    const client = await api.tenancy.createClient(org.id, 'Client C');
    const clientBrand = await api.tenancy.createBrand({ organizationId: org.id, clientId: client.id, name: 'Hooli', domain: 'hooli.example' });
    const bound = await api.keys.create({ organizationId: org.id, scopes: ['read:citation-sources', 'read:citations', 'read:prompts', 'read:changes'], clientId: client.id });
    const sourceId = (await get(`/api/v1/citations/sources?brandId=${brand.id}&startDate=${D1}&endDate=${D3}&limit=1`)).body.data[0].id;
    for (const path of PATHS) {
      expect([path, (await get(`/api/v1/${path}?brandId=${clientBrand.id}`, bound.key)).status]).toEqual([path, 200]);
      expect([path, (await get(`/api/v1/${path}?brandId=${brand.id}`, bound.key)).status]).toEqual([path, 404]);
      expect([path, (await get(`/api/v1/${path}?brandId=${brand.id}&clientId=${client.id}`)).status]).toEqual([path, 404]);
      expect([path, (await get(`/api/v1/${path}?brandId=${clientBrand.id}&clientId=${client.id}`)).status]).toEqual([path, 200]);
    }
    expect((await get(`/api/v1/citations/sources/${sourceId}`, bound.key)).status).toBe(404);
    const empty = await get(`/api/v1/citation-sources/top?brandId=${clientBrand.id}`, bound.key);
    expect(empty.body.data).toMatchObject({ providersAsked: 0, totalDomains: 0, domains: [] });
  });

  it('needs the scope of each group', async () => {
    const narrow = await api.keys.create({ organizationId: org.id, scopes: ['read:citations'] });
    expect((await get(`/api/v1/citations/trends?brandId=${brand.id}`, narrow.key)).status).toBe(200);
    for (const [path, scope] of [['citation-sources/top', 'read:citation-sources'], ['prompts/gaps', 'read:prompts'], ['changes', 'read:changes']]) {
      const r = await get(`/api/v1/${path}?brandId=${brand.id}`, narrow.key);
      expect([path, r.status, r.body.error.details.required]).toEqual([path, 403, scope]);
    }
  });

  it.each([
    ['citation-sources/top', ''],
    ['citation-sources/top', 'brandId=x'],
    ['citation-sources/top', 'brandId=1.5'],
    ['citation-sources/top', '{b}&range=0'],
    ['citation-sources/top', '{b}&range=366'],
    ['citation-sources/top', '{b}&limit=0'],
    ['citation-sources/top', '{b}&limit=201'],
    ['citation-sources/absences', '{b}&minScore=-1'],
    ['citation-sources/absences', '{b}&minScore=101'],
    ['citation-sources/absences', '{b}&minScore=x'],
    ['citation-sources/absences', '{b}&range=0'],
    ['citation-sources/absences', '{b}&limit=201'],
    ['citations/sources', ''],
    ['citations/sources', '{b}&owner=nobody'],
    ['citations/sources', '{b}&limit=0'],
    ['citations/sources', '{b}&limit=201'],
    ['citations/sources', '{b}&sort=colour'],
    ['citations/sources', '{b}&provider=bing'],
    ['citations/trends', '{b}&days=0'],
    ['citations/trends', 'brandId=abc'],
    ['prompts/insights', '{b}&startDate=2026-02-30'],
    ['prompts/insights', '{b}&limit=201'],
    ['prompts/insights', '{b}&sort=colour'],
    ['prompts/gaps', 'brandId='],
    ['prompts/discoveries', '{b}&days=0'],
    ['prompts/trends', '{b}&startDate=2026-03-02&endDate=2026-03-01'],
    ['changes', '{b}&changeType=rank_shuffled'],
    ['changes', '{b}&changeType=mention_lost,bogus'],
    ['changes', '{b}&severity=critical'],
    ['changes', '{b}&limit=0'],
    ['changes', '{b}&order=up'],
    ['changes/summary', '{b}&days=367'],
  ])('GET /%s?%s is 400 with details.fields', async (path, query) => {
    const r = await get(`/api/v1/${path}?${query.replace('{b}', `brandId=${brand.id}`)}`);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('VALIDATION_ERROR');
    expect(r.body.error.details.fields.length).toBeGreaterThan(0);
  });
});
