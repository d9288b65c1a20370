import type { RecordedEvent } from '@libs/event-store';
import { answerEvents, resultId, type AnswerAnalysed } from '@libs/analysis';
import { CounterDeltas, tableShape, upsertRows, type ProjectionContext, type Projector } from '@libs/projection-engine';
import { brandOwners } from '@libs/tenancy';
import { ANSWER_DAILY_PROVIDER_ROLLUPS, ANSWER_DAILY_ROLLUPS, ROLLUP_COUNTER_COLUMNS, ROLLUP_COUNTER_NAMES, type AnswerRollupCell, type EntitySums, type RollupCounterColumn } from '@libs/visibility';

/** Each answer's contribution to the rollups, kept so that a re-analysis replaces it (read by this projector only). */
export const ANSWER_ROLLUP_SOURCES = tableShape<{ result_id: string; contribution: Contribution }>({
  table: 'answer_rollup_sources',
  columns: { result_id: 'text', contribution: 'jsonb' },
  key: ['result_id'],
});

/** One answer's part of the rollups: its cell and, per entity, its counters in ROLLUP_COUNTERS order (compact: one row an answer is kept). */
interface Contribution {
  cell: Omit<AnswerRollupCell, 'entity_id'>;
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
    const counters: EntitySums = {
      answers: 1,
      mentioned: e.mentioned ? 1 : 0,
      mentions: e.mentions,
      ranked: e.rank !== null ? 1 : 0,
      rankSum: e.rank ?? 0,
      top3: e.rank !== null && e.rank <= 3 ? 1 : 0,
      positive: labelled && e.sentiment === 'positive' ? 1 : 0,
      neutral: labelled && e.sentiment === 'neutral' ? 1 : 0,
      negative: labelled && e.sentiment === 'negative' ? 1 : 0,
      scoreSum: labelled ? (e.sentimentScore ?? 0) : 0,
      cited: owned.has(e.entityId) ? 1 : 0,
      withCitations,
      citations: owned.get(e.entityId) ?? 0,
      allCitations: d.citations.length,
      visibilitySum: e.visibilityShare,
      checkable: e.kind === 'brand' ? checkable : 0,
      accurate: e.kind === 'brand' ? accurate : 0,
      judged: labelled && e.labeller?.startsWith('judge:') ? 1 : 0,
      judgeFallbacks: labelled && d.judge?.outcome === 'fallback' ? 1 : 0,
    };
    entities[e.entityId] = ROLLUP_COUNTER_NAMES.map((k) => counters[k]);
  }
  return {
    cell: { organization_id: d.organizationId, client_id: clientId ?? 0, brand_id: d.brandId, day: d.askedAt.slice(0, 10), provider: d.provider, prompt_id: promptId ?? 0, query: d.query, country: d.country ?? '', language: d.language ?? '' },
    entities,
  };
}

/**
 * `answer_daily_rollups`: per brand, UTC day, provider, prompt and tracked entity, the counts and
 * sums every visibility, AEO, GEO and sentiment figure is computed from; `answer_daily_provider_rollups`,
 * the same without prompt and query (the year-long trends read it). The latest analysis of
 * each answer counts: a re-analysis subtracts the answer's previous contribution (kept in
 * `answer_rollup_sources`) and adds the new one, so corrected history re-aggregates exactly.
 */
export const answerRollupsProjector: Projector = {
  name: 'answer_rollups',
  handles: ['answer.analysed'],
  tables: [ANSWER_DAILY_ROLLUPS.table, ANSWER_DAILY_PROVIDER_ROLLUPS.table, ANSWER_ROLLUP_SOURCES.table],
  async apply(events: readonly RecordedEvent[], context: ProjectionContext): Promise<void> {
    const analysed: { id: string; data: AnswerAnalysed['data'] }[] = [];
    for (const e of events) {
      const event = answerEvents.decode(e);
      if (event?.type === 'answer.analysed') analysed.push({ id: resultId(event.data.runId, event.data.n), data: event.data });
    }
    if (!analysed.length) return;
    const ids = [...new Set(analysed.map((a) => a.id))];
    const stored: { result_id: string; contribution: Contribution }[] = await context.query(`SELECT result_id, contribution FROM ${context.table(ANSWER_ROLLUP_SOURCES.table)} WHERE result_id = ANY($1::text[])`, [ids]);
    const current = new Map(stored.map((s) => [s.result_id, s.contribution]));
    const owners = await brandOwners(context.query, analysed.map((a) => a.data.brandId));
    const deltas = new CounterDeltas(ANSWER_DAILY_ROLLUPS, ROLLUP_COUNTER_COLUMNS);
    // The same deltas one grain up (no prompt, no query): the provider rollups stay the fine ones summed.
    const providerDeltas = new CounterDeltas(ANSWER_DAILY_PROVIDER_ROLLUPS, ROLLUP_COUNTER_COLUMNS);
    const apply = (c: Contribution, sign: 1 | -1) => {
      for (const [entityId, counters] of Object.entries(c.entities)) {
        const by: Partial<Record<RollupCounterColumn, number>> = {};
        ROLLUP_COUNTER_COLUMNS.forEach((k, i) => (by[k] = sign * (counters[i] ?? 0)));
        // Contributions kept before markets have no country or language: the cell without one.
        const { prompt_id: _prompt, query: _query, ...providerCell } = c.cell;
        deltas.add({ ...c.cell, country: c.cell.country ?? '', language: c.cell.language ?? '', entity_id: entityId }, by);
        providerDeltas.add({ ...providerCell, country: c.cell.country ?? '', language: c.cell.language ?? '', entity_id: entityId }, by);
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
    await providerDeltas.flush(context);
    await upsertRows(context, ANSWER_ROLLUP_SOURCES, [...written].map(([result_id, contribution]) => ({ result_id, contribution })));
  },
};
