import { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { AnalysedEntity, AnswerAnalysed, AnswerFailed } from '@libs/analysis';
import { createDataSource } from '@libs/database';
import { AnswerFactsReads, brandEntityId, seriesKey, type AnswerFact, type AnswerFactsFilter, type Series } from '@libs/detectors';
import { EventSchemaRegistry, ExpectedRevision, PostgresEventStore } from '@libs/event-store';
import { ProjectionRebuilder } from '@libs/projection-engine';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { answerFactsProjector } from './answer-facts.projector';
import { AnswerFactsSeriesRead1795796400000 } from './migrations/1795796400000-answer-facts-series-read';

/**
 * The detectors' read by series (issue 34, part 4: the competitors carried on the brand's row, the
 * newest answers of each prompt × provider taken through the series index) returns exactly the
 * Series the earlier read returned: the brand's rows windowed per series, each answer's competitors
 * folded from their own rows (the reference statement below is that read, kept here as it was).
 * On a history with competitors listed in different orders, re-analysed answers, failed answers,
 * answers asked in markets, audit queries without a prompt, answers asked at the same moment, and
 * another organisation's brand.
 */
const REFERENCE_SQL = `SELECT b.result_id AS id, b.run_id, b.prompt_id, b.query, b.provider, b.asked_at, b.mentioned, b.mentions, b.rank, b.sentiment,
  b.total_mentions, b.cited, b.with_citations, b.competitor_domains, b.contradictions, c.c_ids, c.c_names, c.c_mentioned
FROM (
  SELECT result_id, run_id, prompt_id, query, provider, asked_at, mentioned, mentions, rank, sentiment, total_mentions, cited, with_citations, competitor_domains, contradictions,
    row_number() OVER (PARTITION BY prompt_id, CASE WHEN prompt_id IS NULL THEN query END, provider ORDER BY asked_at DESC, result_id DESC) AS rn
  FROM answer_facts
  WHERE brand_id = $2 AND entity_id = $6 AND organization_id = $1
    AND asked_at >= $3::timestamptz AND asked_at < $4::timestamptz
) b
LEFT JOIN LATERAL (
  SELECT array_agg(entity_id ORDER BY position) AS c_ids, array_agg(name ORDER BY position) AS c_names, array_agg(mentioned ORDER BY position) AS c_mentioned
  FROM answer_facts c WHERE c.result_id = b.result_id AND c.kind = 'competitor'
) c ON true
WHERE b.rn <= $5`;

const DAY = 86_400_000;
const START = Date.parse('2026-02-01T06:00:00Z');
const PROVIDERS = ['chatgpt', 'gemini', 'perplexity'] as const;
const ORG = 11;
const OTHER_ORG = 12;

let db: TestDatabase;
let ds: DataSource;
let store: PostgresEventStore;
let reads: AnswerFactsReads;

/** A deterministic pseudo-random sequence (the same history every run). */
let seed = 7;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);

interface Tracked {
  organizationId: number;
  brandId: number;
  competitors: number[];
}

function entities(t: Tracked, variant: number): AnalysedEntity[] {
  const entity = (entityId: string, kind: 'brand' | 'competitor', name: string): AnalysedEntity => {
    const mentioned = rand() < 0.6;
    return { entityId, kind, name, mentioned, mentions: mentioned ? 1 + Math.floor(rand() * 3) : 0, rank: mentioned ? 1 + Math.floor(rand() * 4) : null, sentiment: mentioned ? (['positive', 'neutral', 'negative'] as const)[Math.floor(rand() * 3)] : null, sentimentScore: null, visibilityShare: 0 };
  };
  const brand = entity(brandEntityId(t.brandId), 'brand', `Brand ${t.brandId}`);
  const competitors = t.competitors.map((c) => entity(`competitor-${c}`, 'competitor', `Rival ${c}`));
  // The analysis's order varies: the brand first, last, or missing (its row is then "not mentioned").
  if (variant % 7 === 3) return [...competitors].reverse();
  if (variant % 5 === 2) return [...competitors.slice().reverse(), brand];
  return [brand, ...competitors];
}

function analysed(t: Tracked, runId: number, n: number, promptId: number | null, query: string, provider: string, askedAt: number, variant: number, market: boolean): AnswerAnalysed['data'] {
  const cites = rand();
  return {
    runId,
    n,
    organizationId: t.organizationId,
    brandId: t.brandId,
    promptId,
    query,
    provider: provider as AnswerAnalysed['data']['provider'],
    ...(market ? { country: 'DE', language: 'de' } : {}),
    askedAt: new Date(askedAt).toISOString(),
    engineVersion: `v${variant}`,
    analysedAt: new Date(askedAt + 1000).toISOString(),
    entities: entities(t, variant),
    citations: [
      ...(cites < 0.3 ? [{ url: `https://brand${t.brandId}.example/a`, domain: `brand${t.brandId}.example`, title: null, position: 1, owner: 'brand' as const, entityId: brandEntityId(t.brandId) }] : []),
      ...(cites > 0.6 && t.competitors.length ? [{ url: `https://rival${t.competitors[0]}.example/`, domain: `rival${t.competitors[0]}.example`, title: null, position: 2, owner: 'competitor' as const, entityId: `competitor-${t.competitors[0]}` }] : []),
    ],
    ...(variant % 11 === 4 ? { claims: [{ fact: 'founded', claimed: '1999', expected: '2001', sentence: 'Founded in 1999.', agrees: false }] as unknown as AnswerAnalysed['data']['claims'] } : {}),
  };
}

const meta = (organizationId: number) => ({ organizationId, actor: 'test' });

/** The history of one brand: daily runs over prompts × providers, audit queries, failures, re-analyses. */
async function seedHistory(t: Tracked, runBase: number, days: number): Promise<{ reanalysed: string[] }> {
  const prompts = [t.brandId * 100 + 1, t.brandId * 100 + 2, t.brandId * 100 + 3];
  const reanalysed: string[] = [];
  const later: { streamId: string; data: AnswerAnalysed['data'] }[] = [];
  for (let d = 0; d < days; d++) {
    const runId = runBase + d;
    const items: { promptId: number | null; query: string; provider: string }[] = [];
    // The first prompt's text was edited on day 20 (its series keeps its answers; the series reads as its newest answer's query).
    for (const promptId of prompts) for (const provider of PROVIDERS) items.push({ promptId, query: promptId === prompts[0] && d >= 20 ? `question ${promptId}, edited` : `question ${promptId}`, provider });
    // Audit requests' queries (no prompt), on some days: a series per query and provider.
    if (d % 3 === 0) for (const query of ['audit one', 'audit two']) items.push({ promptId: null, query, provider: 'chatgpt' });
    // On some days a second run asks the first questions again at the very same moments (ties in a series, broken by result id).
    const asked = items.map((it, n) => ({ ...it, runId, n, at: START + d * DAY + n * 257 + (d % 7) }));
    if (d % 4 === 1) asked.push(...items.slice(0, 4).map((it, n) => ({ ...it, runId: runId + 500, n, at: START + d * DAY + n * 257 + (d % 7) })));
    for (const it of asked) {
      const { runId, n, at: askedAt } = it;
      const streamId = `answer-${runId}-${n}`;
      if ((d * 13 + n) % 17 === 5) {
        const failed: AnswerFailed['data'] = { runId, n, organizationId: t.organizationId, brandId: t.brandId, promptId: it.promptId, query: it.query, provider: it.provider as AnswerFailed['data']['provider'], reason: 'down', kind: 'unavailable', attempts: 3, askedAt: new Date(askedAt).toISOString(), failedAt: new Date(askedAt + 5000).toISOString() };
        await store.appendToStream(streamId, [{ type: 'answer.failed', data: failed as unknown as Record<string, unknown>, metadata: meta(t.organizationId) }], ExpectedRevision.any);
        continue;
      }
      const data = analysed(t, runId, n, it.promptId, it.query, it.provider, askedAt, d + n, d % 2 === 0);
      await store.appendToStream(streamId, [{ type: 'answer.analysed', data: data as unknown as Record<string, unknown>, metadata: meta(t.organizationId) }], ExpectedRevision.any);
      if ((d + n) % 9 === 0) later.push({ streamId, data: analysed(t, runId, n, it.promptId, it.query, it.provider, askedAt, d + n + 1, d % 2 === 0) });
    }
  }
  // Re-analyses, appended after the whole history (the latest analysis of each answer wins).
  for (const { streamId, data } of later) {
    await store.appendToStream(streamId, [{ type: 'answer.analysed', data: data as unknown as Record<string, unknown>, metadata: meta(t.organizationId) }], ExpectedRevision.any);
    reanalysed.push(`${data.runId}-${data.n}`);
  }
  return { reanalysed };
}

interface ReferenceRow {
  id: string;
  run_id: string;
  prompt_id: string | null;
  query: string;
  provider: string;
  asked_at: Date;
  mentioned: boolean;
  mentions: number;
  rank: number | null;
  sentiment: AnswerFact['brand']['sentiment'];
  total_mentions: number;
  cited: boolean;
  with_citations: boolean;
  competitor_domains: string[];
  contradictions: AnswerFact['contradictions'];
  c_ids: string[] | null;
  c_names: string[] | null;
  c_mentioned: boolean[] | null;
}

/** The earlier read: REFERENCE_SQL's rows grouped into series as it grouped them (a series takes the query of its first row, the newest). */
async function reference(f: AnswerFactsFilter): Promise<Series[]> {
  const params = [f.organizationId, f.brandId, (f.since ?? new Date(0)).toISOString(), (f.until ?? new Date('9999-01-01T00:00:00Z')).toISOString(), f.perSeries, brandEntityId(f.brandId)];
  const rows: ReferenceRow[] = await ds.query(REFERENCE_SQL, params);
  const bySeries = new Map<string, Series>();
  for (const r of rows) {
    const promptId = r.prompt_id === null ? null : Number(r.prompt_id);
    const id = `${seriesKey(promptId, r.query)}|${r.provider}`;
    if (!bySeries.has(id)) bySeries.set(id, { key: seriesKey(promptId, r.query), promptId, query: r.query, provider: r.provider, answers: [] });
    bySeries.get(id)!.answers.push({
      resultId: r.id,
      runId: Number(r.run_id),
      promptId,
      query: r.query,
      provider: r.provider,
      askedAt: new Date(r.asked_at).toISOString(),
      brand: { mentioned: r.mentioned, mentions: r.mentions, rank: r.rank, sentiment: r.sentiment },
      totalMentions: r.total_mentions,
      competitors: (r.c_ids ?? []).map((entityId, i) => ({ entityId, name: r.c_names![i], mentioned: r.c_mentioned![i] })),
      cited: r.cited,
      withCitations: r.with_citations,
      competitorDomains: r.competitor_domains,
      contradictions: r.contradictions,
    });
  }
  const series = [...bySeries.values()];
  for (const s of series) s.answers.sort((a, b) => (a.askedAt < b.askedAt ? -1 : a.askedAt > b.askedAt ? 1 : a.resultId < b.resultId ? -1 : 1));
  return series.sort((a, b) => a.key.localeCompare(b.key) || a.provider.localeCompare(b.provider));
}

const acme: Tracked = { organizationId: ORG, brandId: 1, competitors: [21, 22, 23] };
const solo: Tracked = { organizationId: ORG, brandId: 2, competitors: [] };
const other: Tracked = { organizationId: OTHER_ORG, brandId: 3, competitors: [31] };
let reanalysed: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  store = new PostgresEventStore({ pool: new Pool({ connectionString: db.url, max: 2 }), ownsPool: true, connectionString: db.url, registry: new EventSchemaRegistry() });
  ds = await createDataSource(db.url, 2).initialize();
  reads = new AnswerFactsReads(ds);
  reanalysed = (await seedHistory(acme, 1000, 30)).reanalysed;
  await seedHistory(solo, 2000, 12);
  await seedHistory(other, 3000, 8);
  // Small batches: a re-analysis lands in a later batch than its first analysis.
  await new ProjectionRebuilder(ds, store, 40).rebuild(answerFactsProjector);
  await ds.query('ANALYZE answer_facts');
}, 120_000);
afterAll(async () => {
  await Promise.all([store?.close(), ds?.destroy()]);
  await db?.drop();
});

const filters = (t: Tracked): AnswerFactsFilter[] => [
  { organizationId: t.organizationId, brandId: t.brandId, perSeries: 6 },
  { organizationId: t.organizationId, brandId: t.brandId, perSeries: 1 },
  { organizationId: t.organizationId, brandId: t.brandId, perSeries: 1000 },
  { organizationId: t.organizationId, brandId: t.brandId, since: new Date(START + 5 * DAY), until: new Date(START + 20 * DAY + 1000), perSeries: 5 },
  { organizationId: t.organizationId, brandId: t.brandId, since: new Date(START + 40 * DAY), perSeries: 5 },
];

describe('the detectors’ read of answer_facts by series', () => {
  it('returns the same series as the windowed read with the competitors’ rows folded, for every filter', async () => {
    for (const t of [acme, solo, other]) {
      for (const f of filters(t)) {
        const expected = await reference(f);
        expect(await reads.series(f)).toEqual(expected);
      }
    }
    // The history is what it claims to be: tracked prompts and audit queries, competitors, re-analysed answers, failures left out.
    const all = await reads.series({ organizationId: ORG, brandId: acme.brandId, perSeries: 1000 });
    expect(all.filter((s) => s.promptId === null).map((s) => s.key)).toEqual(['q:audit one', 'q:audit two']);
    expect(all.filter((s) => s.promptId !== null)).toHaveLength(9);
    expect(all.filter((s) => s.query.endsWith(', edited')).map((s) => new Set(s.answers.map((a) => a.query)).size)).toEqual([2, 2, 2]);
    const answers = all.flatMap((s) => s.answers);
    const stored: { n: number }[] = await ds.query(`SELECT count(*)::int AS n FROM events WHERE type = 'answer.failed' AND (data->>'brandId')::int = $1`, [acme.brandId]);
    expect(stored[0].n).toBeGreaterThan(0);
    expect(answers.length).toBe(30 * 9 + 10 * 2 + 8 * 4 - stored[0].n);
    expect(answers.every((a) => a.competitors.length === 3)).toBe(true);
    expect(new Set(answers.map((a) => a.competitors.map((c) => c.entityId).join()))).toEqual(new Set(['competitor-21,competitor-22,competitor-23', 'competitor-23,competitor-22,competitor-21']));
    expect(answers.some((a) => a.competitors.some((c) => c.mentioned)) && answers.some((a) => a.competitors.some((c) => !c.mentioned))).toBe(true);
    expect(answers.some((a) => a.contradictions.length > 0)).toBe(true);
    expect(reanalysed.length).toBeGreaterThan(10);
    // A re-analysed answer reads as its latest analysis.
    const [latest] = await ds.query(
      `SELECT data FROM events WHERE type = 'answer.analysed' AND (data->>'runId')::bigint = $1 AND (data->>'n')::int = $2 ORDER BY global_position DESC LIMIT 1`,
      reanalysed[0].split('-').map(Number),
    );
    const read = answers.find((a) => a.resultId === reanalysed[0])!;
    expect(read.competitors.map((c) => c.mentioned)).toEqual((latest.data as AnswerAnalysed['data']).entities.filter((e) => e.kind === 'competitor').map((e) => e.mentioned));
    // Nothing across organisations, nothing for a brand without history.
    expect(await reads.series({ organizationId: OTHER_ORG, brandId: acme.brandId, perSeries: 6 })).toEqual([]);
    expect(await reads.series({ organizationId: ORG, brandId: 99, perSeries: 6 })).toEqual([]);
    expect((await reads.series({ organizationId: ORG, brandId: solo.brandId, perSeries: 6 })).every((s) => s.answers.every((a) => a.competitors.length === 0))).toBe(true);
  });

  it('the migration fills the competitors’ arrays of existing rows exactly as the projector writes them', async () => {
    const arrays = `SELECT result_id, entity_id, competitor_ids, competitor_names, competitor_mentioned FROM answer_facts ORDER BY result_id, entity_id`;
    const written = await ds.query(arrays);
    expect(written.filter((r: { competitor_ids: unknown }) => r.competitor_ids !== null).length).toBeGreaterThan(300);
    const qr = ds.createQueryRunner();
    try {
      const migration = new AnswerFactsSeriesRead1795796400000();
      await migration.down(qr);
      await migration.up(qr);
    } finally {
      await qr.release();
    }
    expect(await ds.query(arrays)).toEqual(written);
    for (const t of [acme, solo]) for (const f of filters(t)) expect(await reads.series(f)).toEqual(await reference(f));
  });
});
