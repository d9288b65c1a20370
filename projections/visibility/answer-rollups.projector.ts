import type { RecordedEvent } from '@libs/event-store';
import { answerEvents, resultId, type AnswerAnalysed } from '@libs/analysis';
import { CounterDeltas, tableShape, upsertRows, type ProjectionContext, type Projector } from '@libs/projection-engine';
import { brandOwners } from '@libs/tenancy';

const COUNTERS = ['answers', 'mentioned', 'mentions', 'ranked', 'rank_sum', 'top3', 'positive', 'neutral', 'negative', 'score_sum', 'cited', 'with_citations', 'citations', 'all_citations', 'visibility_sum', 'checkable', 'accurate'] as const;
type Counter = (typeof COUNTERS)[number];

interface RollupRow extends Record<Counter, number> {
  organization_id: number;
  client_id: number;
  brand_id: number;
  day: string;
  provider: string;
  prompt_id: number;
  query: string;
  entity_id: string;
}

const rollups = tableShape<RollupRow>({
  table: 'answer_daily_rollups',
  columns: {
    organization_id: 'bigint',
    client_id: 'bigint',
    brand_id: 'bigint',
    day: 'date',
    provider: 'text',
    prompt_id: 'bigint',
    query: 'text',
    entity_id: 'text',
    answers: 'integer',
    mentioned: 'integer',
    mentions: 'integer',
    ranked: 'integer',
    rank_sum: 'integer',
    top3: 'integer',
    positive: 'integer',
    neutral: 'integer',
    negative: 'integer',
    score_sum: 'float8',
    cited: 'integer',
    with_citations: 'integer',
    citations: 'integer',
    all_citations: 'integer',
    visibility_sum: 'float8',
    checkable: 'integer',
    accurate: 'integer',
  },
  key: ['brand_id', 'day', 'provider', 'prompt_id', 'query', 'entity_id'],
});

const sources = tableShape<{ result_id: string; contribution: Contribution }>({
  table: 'answer_rollup_sources',
  columns: { result_id: 'text', contribution: 'jsonb' },
  key: ['result_id'],
});

/** One answer's part of the rollups: its cell and, per entity, its counters in COUNTERS order (compact: one row an answer is kept). */
interface Contribution {
  cell: { organization_id: number; client_id: number; brand_id: number; day: string; provider: string; prompt_id: number; query: string };
  entities: Record<string, number[]>;
}

/** What an analysis adds to the rollups (DESIGN §14: an entity's mention, rank, sentiment, citation and visibility in one answer). */
export function contributionOf(d: AnswerAnalysed['data'], promptId: number | null, clientId: number | null): Contribution {
  const owned = new Map<string, number>();
  for (const c of d.citations) if (c.entityId !== null) owned.set(c.entityId, (owned.get(c.entityId) ?? 0) + 1);
  const withCitations = d.citations.length > 0 ? 1 : 0;
  // Accuracy (DESIGN §14): the brand's answer is checkable when it makes a claim on a registered fact, accurate when all agree.
  const claims = d.claims ?? [];
  const checkable = claims.length > 0 ? 1 : 0;
  const accurate = checkable && claims.every((c) => c.agrees) ? 1 : 0;
  const entities: Contribution['entities'] = {};
  for (const e of d.entities) {
    const labelled = e.mentioned && e.sentiment !== null;
    const counters: Record<Counter, number> = {
      answers: 1,
      mentioned: e.mentioned ? 1 : 0,
      mentions: e.mentions,
      ranked: e.rank !== null ? 1 : 0,
      rank_sum: e.rank ?? 0,
      top3: e.rank !== null && e.rank <= 3 ? 1 : 0,
      positive: labelled && e.sentiment === 'positive' ? 1 : 0,
      neutral: labelled && e.sentiment === 'neutral' ? 1 : 0,
      negative: labelled && e.sentiment === 'negative' ? 1 : 0,
      score_sum: labelled ? (e.sentimentScore ?? 0) : 0,
      cited: owned.has(e.entityId) ? 1 : 0,
      with_citations: withCitations,
      citations: owned.get(e.entityId) ?? 0,
      all_citations: d.citations.length,
      visibility_sum: e.visibilityShare,
      checkable: e.kind === 'brand' ? checkable : 0,
      accurate: e.kind === 'brand' ? accurate : 0,
    };
    entities[e.entityId] = COUNTERS.map((k) => counters[k]);
  }
  return {
    cell: { organization_id: d.organizationId, client_id: clientId ?? 0, brand_id: d.brandId, day: d.askedAt.slice(0, 10), provider: d.provider, prompt_id: promptId ?? 0, query: d.query },
    entities,
  };
}

/**
 * `answer_daily_rollups`: per brand, UTC day, provider, prompt and tracked entity, the counts and
 * sums every visibility, AEO, GEO and sentiment figure is computed from. The latest analysis of
 * each answer counts: a re-analysis subtracts the answer's previous contribution (kept in
 * `answer_rollup_sources`) and adds the new one, so corrected history re-aggregates exactly.
 */
export const answerRollupsProjector: Projector = {
  name: 'answer_rollups',
  handles: ['answer.analysed'],
  tables: ['answer_daily_rollups', 'answer_rollup_sources'],
  async apply(events: readonly RecordedEvent[], context: ProjectionContext): Promise<void> {
    const analysed: { id: string; data: AnswerAnalysed['data'] }[] = [];
    for (const e of events) {
      const event = answerEvents.decode(e);
      if (event?.type === 'answer.analysed') analysed.push({ id: resultId(event.data.runId, event.data.n), data: event.data });
    }
    if (!analysed.length) return;
    const ids = [...new Set(analysed.map((a) => a.id))];
    const stored: { result_id: string; contribution: Contribution }[] = await context.query(`SELECT result_id, contribution FROM ${context.table('answer_rollup_sources')} WHERE result_id = ANY($1::text[])`, [ids]);
    const current = new Map(stored.map((s) => [s.result_id, s.contribution]));
    const owners = await brandOwners(context.query, analysed.map((a) => a.data.brandId));
    const deltas = new CounterDeltas(rollups, COUNTERS);
    const apply = (c: Contribution, sign: 1 | -1) => {
      for (const [entityId, counters] of Object.entries(c.entities)) {
        const by: Partial<Record<Counter, number>> = {};
        COUNTERS.forEach((k, i) => (by[k] = sign * (counters[i] ?? 0)));
        deltas.add({ ...c.cell, entity_id: entityId }, by);
      }
    };
    const written = new Map<string, Contribution>();
    for (const { id, data } of analysed) {
      const previous = written.get(id) ?? current.get(id);
      const next = contributionOf(data, data.promptId, owners.get(data.brandId)?.clientId ?? null);
      if (previous) apply(previous, -1);
      apply(next, 1);
      written.set(id, next);
    }
    await deltas.flush(context);
    await upsertRows(context, sources, [...written].map(([result_id, contribution]) => ({ result_id, contribution })));
  },
};
