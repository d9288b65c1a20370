import { EVENT_STORE, ExpectedRevision, type EventStore } from '@libs/event-store';
import { citationOwnersSql, citationRateSql, type AnswerFilter } from '@libs/citations';
import { addDays, dailyRateSeries, eachDay, utcDay } from '@libs/metrics';
import { ProjectionRebuilder } from '@libs/projection-engine';
import { promptAnswersProjector } from '@projections';
import { WorkerPartModule } from '../../apps/worker/src/worker.module';
import { startTestApi, type TestApi } from '../support/test-api';

/**
 * `citations/trends` from `citation_daily_rollups` (issue 33 part 1) answers byte for byte what the
 * statements over the answers answered before it (`citationRateSql`, `citationOwnersSql`, and the
 * read's former assembly, copied below as it was): two organisations, three brands, answers in
 * three markets (none, DE/de-DE, FR/fr-FR) on four providers and five days, tracked prompts (one
 * with a topic), answers without citations, and answers analysed two and three times (owners,
 * counts and the brand's citation moving); every filter the read takes, then again after
 * `projections rebuild prompt_answers`.
 */
let api: TestApi;
let store: EventStore;
const today = utcDay(Date.now());
const DAYS = [4, 3, 2, 1, 0].map((k) => addDays(today, -k));
const PROVIDERS = ['chatgpt', 'claude', 'perplexity', 'gemini'];
const MARKETS: ({ country: string; language: string } | null)[] = [null, { country: 'DE', language: 'de-DE' }, { country: 'FR', language: 'fr-FR' }];
type Owner = 'brand' | 'competitor' | 'other';

interface Brand {
  org: { id: number; key: string };
  id: number;
  name: string;
  competitors: { id: number }[];
  prompts: { id: number; query: string; topic: string | null }[];
}
const brands: Brand[] = [];
let run = 7000;

/** A small deterministic generator (the fixture is the same on every run). */
let seed = 33;
const next = (n: number) => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return Math.floor((seed / 2147483648) * n); // the high bits: an LCG's low bits repeat with a short period
};

function citationsOf(b: Brand, count: number) {
  return Array.from({ length: count }, (_, k) => {
    const owner: Owner = (['brand', 'competitor', 'other', 'other'] as const)[next(4)];
    const domain = owner === 'brand' ? `brand${b.id}.example` : owner === 'competitor' ? `rival${b.id}.example` : `site${next(5)}.example`;
    return { url: `https://${domain}/p${k}`, domain, title: null, position: k + 1, owner, entityId: owner === 'brand' ? `brand-${b.id}` : owner === 'competitor' ? `competitor-${b.competitors[0].id}` : null };
  });
}

function analysed(b: Brand, runId: number, n: number, a: { day: string; provider: string; prompt: Brand['prompts'][number] | null; market: (typeof MARKETS)[number] }) {
  const mentioned = next(3) > 0;
  return {
    type: 'answer.analysed',
    data: {
      runId, n, organizationId: b.org.id, brandId: b.id, promptId: a.prompt?.id ?? null, query: a.prompt?.query ?? 'an audit question', provider: a.provider, askedAt: `${a.day}T09:00:00.000Z`,
      engineVersion: 'test', analysedAt: `${a.day}T09:00:01.000Z`, ...(a.market ?? {}),
      entities: [
        { entityId: `brand-${b.id}`, kind: 'brand', name: b.name, mentioned, mentions: mentioned ? 1 : 0, rank: mentioned ? 1 + next(3) : null, sentiment: mentioned ? 'neutral' : null, sentimentScore: mentioned ? 0 : null, visibilityShare: mentioned ? 0.5 : 0 },
        { entityId: `competitor-${b.competitors[0].id}`, kind: 'competitor', name: 'Rival', mentioned: !mentioned, mentions: mentioned ? 0 : 1, rank: mentioned ? null : 1, sentiment: null, sentimentScore: null, visibilityShare: mentioned ? 0 : 0.5 },
      ],
      citations: citationsOf(b, next(4)),
    },
  };
}

/** Answers of a brand: every day, provider and market, some prompts; a third re-analysed once, some twice. */
async function seedAnswers(b: Brand, perCell: number): Promise<void> {
  const runId = ++run;
  let n = 0;
  for (const day of DAYS)
    for (const provider of PROVIDERS)
      for (const market of MARKETS)
        for (let k = 0; k < perCell; k++) {
          if (next(5) === 0) continue; // some cells have no answer
          const a = { day, provider, market, prompt: next(4) === 0 ? null : b.prompts[next(b.prompts.length)] };
          const stream = `answer-${runId}-${++n}`;
          const recorded = {
            type: 'answer.recorded',
            data: { runId, n, organizationId: b.org.id, brandId: b.id, promptId: a.prompt?.id ?? null, query: a.prompt?.query ?? 'an audit question', provider, model: 'test', source: 'live', text: 'An answer.', providerCitations: [], usage: null, latencyMs: 1, askedAt: `${day}T09:00:00.000Z`, raw: null, ...(market ?? {}) },
          };
          await store.appendToStream(stream, [recorded, analysed(b, runId, n, a)], ExpectedRevision.noStream);
          if (next(3) === 0) await store.appendToStream(stream, [analysed(b, runId, n, a)], ExpectedRevision.exact(1));
          if (next(6) === 0) await store.appendToStream(stream, [analysed(b, runId, n, a)], ExpectedRevision.any);
        }
}

/** The read as it was before the rollup (libs/citations at e9af8f6): the two statements over the answers and their assembly. */
async function before(b: Brand, f: AnswerFilter) {
  const rates: { day: string; answers: number; with_citations: number; brand_cited: number }[] = await api.dataSource.query(citationRateSql(f).text, citationRateSql(f).params);
  const owners: { day: string; owner: string; citations: number }[] = await api.dataSource.query(citationOwnersSql(f).text, citationOwnersSql(f).params);
  const { start, end } = f;
  const byDay = new Map(rates.map((r) => [r.day, r]));
  const counts = new Map<string, Record<string, number>>();
  for (const o of owners) counts.set(o.day, { ...counts.get(o.day), [o.owner]: o.citations });
  return {
    data: {
      brand: { id: `brand-${b.id}`, name: b.name, kind: 'brand' },
      startDate: start,
      endDate: end,
      citationRate: dailyRateSeries(start, end, new Map(rates.map((r) => [r.day, { k: r.brand_cited, n: r.with_citations }]))),
      counts: eachDay(start, end).map((date) => {
        const answers = byDay.get(date)?.answers ?? 0;
        const c = counts.get(date) ?? {};
        const of = (owner: string) => (answers ? (c[owner] ?? 0) : null);
        return { date, answers, brand: of('brand'), competitor: of('competitor'), other: of('other'), total: answers ? (c.brand ?? 0) + (c.competitor ?? 0) + (c.other ?? 0) : null };
      }),
    },
  };
}

/** Every filter the read takes (query string and the filter it resolves to). */
function filters(b: Brand): [string, Omit<AnswerFilter, 'organizationId' | 'brandId'>][] {
  const start = addDays(today, -29);
  const crm = b.prompts.filter((p) => p.topic === 'crm').map((p) => p.id);
  return [
    ['', { start, end: today }],
    ['&days=365', { start: addDays(today, -364), end: today }],
    [`&startDate=${DAYS[1]}&endDate=${DAYS[3]}`, { start: DAYS[1], end: DAYS[3] }],
    ['&provider=claude', { start, end: today, provider: 'claude' }],
    ['&country=de', { start, end: today, country: 'DE' }],
    ['&country=FR&language=fr-fr', { start, end: today, country: 'FR', language: 'fr-FR' }],
    ['&language=de-DE&provider=gemini', { start, end: today, language: 'de-DE', provider: 'gemini' }],
    ['&country=IT', { start, end: today, country: 'IT' }],
    [`&promptId=${b.prompts[0].id}`, { start, end: today, promptIds: [b.prompts[0].id] }],
    ['&topic=crm', { start, end: today, promptIds: crm }],
    ['&topic=crm&provider=chatgpt&country=DE', { start, end: today, promptIds: crm, provider: 'chatgpt', country: 'DE' }],
  ];
}

async function expectSameAnswers(): Promise<number> {
  let compared = 0;
  for (const b of brands)
    for (const [params, f] of filters(b)) {
      const url = `/api/v1/citations/trends?brandId=${b.id}${params}`;
      const res = await api.app.inject({ method: 'GET', url, headers: { 'x-api-key': b.org.key } });
      expect([url, res.statusCode]).toEqual([url, 200]);
      expect([url, res.body]).toEqual([url, JSON.stringify(await before(b, { organizationId: b.org.id, brandId: b.id, ...f }))]);
      compared++;
    }
  return compared;
}

const ROLLUP = `SELECT organization_id::int, brand_id::int, to_char(day, 'YYYY-MM-DD') AS day, provider, country, language, answers, with_citations, brand_cited, brand_citations, competitor_citations, other_citations
                  FROM citation_daily_rollups ORDER BY brand_id, day, provider, country, language`;

beforeAll(async () => {
  api = await startTestApi({ ANALYSIS_SCHEDULER_POLL_MS: '86400000' }, [WorkerPartModule.forRoot()]);
  store = api.app.get<EventStore>(EVENT_STORE);
  const orgs = [await api.organization(), await api.organization()];
  for (const [org, name] of [[orgs[0], 'Acme'], [orgs[0], 'Beta'], [orgs[1], 'Gamma']] as const) {
    const brand = await api.tenancy.createBrand({ organizationId: org.id, name, domain: `${name.toLowerCase()}.example`, competitors: [{ name: `${name} rival`, domain: `${name.toLowerCase()}-rival.example` }] });
    const prompts = [];
    for (const [query, topic] of [[`${name} crm`, 'crm'], [`${name} erp`, null], [`${name} crm pricing`, 'crm']] as const) {
      const r = await api.request({ method: 'POST', url: `/api/v1/brands/${brand.id}/prompts`, key: org.key, body: { query, ...(topic ? { topic } : {}), isActive: false } });
      expect(r.status).toBe(201);
      prompts.push({ id: r.body.data.id as number, query, topic });
    }
    brands.push({ org, id: brand.id, name, competitors: brand.competitors, prompts });
  }
  await seedAnswers(brands[0], 3);
  await seedAnswers(brands[1], 1);
  await seedAnswers(brands[2], 2);
  await api.projected(['prompt_answers', 'citation_records']);
}, 120_000);
afterAll(async () => {
  await api?.close();
}, 180_000);

describe('citations/trends from the daily rollup (issue 33 part 1)', () => {
  it('is the GROUP BY of the answers, re-analyses included', async () => {
    const rollup = await api.dataSource.query(ROLLUP);
    const grouped = await api.dataSource.query(`
      SELECT p.organization_id::int, p.brand_id::int, to_char(p.day, 'YYYY-MM-DD') AS day, p.provider, coalesce(p.country, '') AS country, coalesce(p.language, '') AS language,
             count(*)::int AS answers, count(*) FILTER (WHERE p.citations > 0)::int AS with_citations, count(*) FILTER (WHERE p.brand_cited)::int AS brand_cited,
             coalesce(sum(c.brand), 0)::int AS brand_citations, coalesce(sum(c.competitor), 0)::int AS competitor_citations, coalesce(sum(c.other), 0)::int AS other_citations
        FROM prompt_answers p
        LEFT JOIN (SELECT result_id, count(*) FILTER (WHERE owner = 'brand') AS brand, count(*) FILTER (WHERE owner = 'competitor') AS competitor, count(*) FILTER (WHERE owner = 'other') AS other
                     FROM citation_records GROUP BY result_id) c USING (result_id)
       GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY brand_id, day, provider, country, language`);
    expect(rollup).toEqual(grouped);
    // The fixture is what it says: three markets, re-analysed answers, citations of every owner.
    expect(new Set(rollup.map((r: { country: string }) => r.country))).toEqual(new Set(['', 'DE', 'FR']));
    const [{ reanalysed }] = await api.dataSource.query(`SELECT count(DISTINCT stream_id)::int AS reanalysed FROM events WHERE type = 'answer.analysed' AND stream_position > 1`);
    expect(reanalysed).toBeGreaterThan(20);
    for (const c of ['brand_citations', 'competitor_citations', 'other_citations']) expect(rollup.some((r: Record<string, number>) => r[c] > 0)).toBe(true);
  });

  it('answers byte for byte what the statements over the answers answered, under every filter', async () => {
    expect(await expectSameAnswers()).toBe(33);
  });

  it('a rebuild of prompt_answers rebuilds the rollup to the same rows, and the answers stay the same', async () => {
    const rollup = await api.dataSource.query(ROLLUP);
    await new ProjectionRebuilder(api.dataSource, store, 7).rebuild(promptAnswersProjector);
    expect(await api.dataSource.query(ROLLUP)).toEqual(rollup);
    expect(await expectSameAnswers()).toBe(33);
  });
});
