import type { RecordedEvent } from '@libs/event-store';
import { answerEvents, resultId, type AnswerAnalysed } from '@libs/analysis';
import { CounterDeltas, tableShape, upsertRows, type BulkRebuild, type ProjectionContext, type Projector } from '@libs/projection-engine';
import { brandOwners } from '@libs/tenancy';
import { ANSWER_DAILY_PROVIDER_ROLLUPS, ANSWER_DAILY_ROLLUPS, ROLLUP_COUNTER_COLUMNS, ROLLUP_COUNTER_NAMES, rollupCellColumns, type AnswerRollupCell, type EntitySums, type RollupCounterColumn } from '@libs/visibility';

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

/** The answers of a batch of events: each analysis with its result id, in feed order (with its index in the batch). */
function analysedIn(events: readonly RecordedEvent[]): { id: string; at: number; data: AnswerAnalysed['data'] }[] {
  const analysed: { id: string; at: number; data: AnswerAnalysed['data'] }[] = [];
  events.forEach((e, at) => {
    const event = answerEvents.decode(e);
    if (event?.type === 'answer.analysed') analysed.push({ id: resultId(event.data.runId, event.data.n), at, data: event.data });
  });
  return analysed;
}

const ROLLUP_COLUMNS = Object.keys(ANSWER_DAILY_ROLLUPS.columns) as (keyof typeof ANSWER_DAILY_ROLLUPS.columns)[];
const CELL_COLUMNS = rollupCellColumns(ANSWER_DAILY_ROLLUPS);

/**
 * The bulk rebuild (issue 33 part 2): each page's analyses become staging rows, COPYed — `sources`,
 * one per analysis (`seq`: its place in the feed; the contribution as `apply` keeps it), and
 * `cells`, one per analysis and entity (its cell and counters, as `apply` adds them). `finish`
 * keeps the latest analysis of each answer: its contribution goes to `answer_rollup_sources`; an
 * earlier analysis's cells are zeroed (not removed: the live projector leaves a cell a later
 * analysis no longer touches at zero, so the rebuild keeps it too), then the cells are summed per
 * key into `answer_daily_rollups`. Row for row what `apply` leaves, except the float sums, which
 * are added in another order (last-bit differences; `apply`'s own sums already depend on where
 * its batches end) — checked by projections/visibility/answer-rollups-rebuild.int.spec.ts.
 */
const bulkRebuild: BulkRebuild = {
  staging: {
    sources: 'seq bigint NOT NULL, result_id text NOT NULL, contribution jsonb NOT NULL',
    cells: `seq bigint NOT NULL, ${ROLLUP_COLUMNS.map((c) => `${c} ${ANSWER_DAILY_ROLLUPS.columns[c]} NOT NULL`).join(', ')}`,
    superseded: 'seq bigint NOT NULL',
  },
  async stage(events, seq, context) {
    const analysed = analysedIn(events);
    // Brands' owners read once per rebuild (a brand's client is the same for the whole replay).
    const owners = (context.memo.get('owners') as Map<number, { clientId: number | null }> | undefined) ?? new Map<number, { clientId: number | null }>();
    context.memo.set('owners', owners);
    const unknown = [...new Set(analysed.map((a) => a.data.brandId))].filter((b) => !owners.has(b));
    for (const [id, owner] of await brandOwners(context.query, unknown)) owners.set(id, owner);
    const sources: unknown[][] = [];
    const cells: unknown[][] = [];
    for (const { id, at, data } of analysed) {
      const c = contributionOf(data, data.promptId, owners.get(data.brandId)?.clientId ?? null);
      sources.push([seq + at, id, c]);
      const k = c.cell;
      for (const [entityId, counters] of Object.entries(c.entities)) {
        cells.push([seq + at, k.organization_id, k.client_id, k.brand_id, k.day, k.provider, k.prompt_id, k.query, k.country, k.language, entityId, ...ROLLUP_COUNTER_COLUMNS.map((_, i) => counters[i] ?? 0)]);
      }
    }
    return { sources, cells };
  },
  async finish(context) {
    const sources = context.staging('sources');
    const cells = context.staging('cells');
    const superseded = context.staging('superseded');
    await context.query(`ANALYZE ${sources}`);
    // Sorting in memory, not on disk; grouping by sort, so that each cell's floats are added in
    // feed order, as the live batches add them (this transaction only).
    await context.query(`SELECT set_config('work_mem', '256MB', true), set_config('enable_hashagg', 'off', true)`);
    await context.query(
      `INSERT INTO ${superseded} SELECT s.seq FROM ${sources} s
         JOIN (SELECT result_id, max(seq) AS last FROM ${sources} GROUP BY result_id HAVING count(*) > 1) d USING (result_id) WHERE s.seq < d.last`,
    );
    await context.query(`INSERT INTO ${context.table(ANSWER_ROLLUP_SOURCES.table)} (result_id, contribution) SELECT result_id, contribution FROM ${sources} s WHERE s.seq NOT IN (SELECT seq FROM ${superseded})`);
    await context.query(`UPDATE ${cells} SET ${ROLLUP_COUNTER_COLUMNS.map((c) => `${c} = 0`).join(', ')} WHERE seq IN (SELECT seq FROM ${superseded})`);
    // Grouped in the key's order (then the columns the key determines), each cell's rows in feed
    // order: rows reach the key's index in order, and the float sums are left-to-right in feed order.
    const keys = [...ANSWER_DAILY_ROLLUPS.key, ...CELL_COLUMNS.filter((c) => !(ANSWER_DAILY_ROLLUPS.key as readonly string[]).includes(c))].join(', ');
    await context.query(
      `INSERT INTO ${context.table(ANSWER_DAILY_ROLLUPS.table)} (${ROLLUP_COLUMNS.join(', ')})
        SELECT ${CELL_COLUMNS.join(', ')}, ${ROLLUP_COUNTER_COLUMNS.map((c) => `sum(${c})`).join(', ')}
          FROM (SELECT * FROM ${cells} ORDER BY ${keys}, seq) AS c GROUP BY ${keys} ORDER BY ${keys}`,
    );
  },
};

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
  bulk: bulkRebuild,
  // The provider rollups are the fine rollups summed over prompt and query (see ANSWER_DAILY_PROVIDER_ROLLUPS):
  // a bulk rebuild and a per-brand rebuild fill them by that GROUP BY once the fine rows are built.
  derived: [
    {
      table: ANSWER_DAILY_PROVIDER_ROLLUPS.table,
      from: ANSWER_DAILY_ROLLUPS.table,
      keys: rollupCellColumns(ANSWER_DAILY_PROVIDER_ROLLUPS),
      sums: ROLLUP_COUNTER_COLUMNS,
    },
  ],
  async apply(events: readonly RecordedEvent[], context: ProjectionContext): Promise<void> {
    const analysed = analysedIn(events);
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
