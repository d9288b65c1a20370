import type { RecordedEvent } from '@libs/event-store';
import { answerEvents, resultId, type AnswerAnalysed } from '@libs/analysis';
import { CounterDeltas, SeenKeys, tableShape, upsertRows, type BulkContext, type BulkRebuild, type ProjectionContext, type Projector } from '@libs/projection-engine';
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
const CELL_COLUMNS = rollupCellColumns(ANSWER_DAILY_ROLLUPS) as (keyof AnswerRollupCell)[];
const KEY_COLUMNS = ANSWER_DAILY_ROLLUPS.key as readonly (keyof AnswerRollupCell)[];
/** The key's columns but the entity: an answer's cell. */
const ANSWER_CELL_KEY = KEY_COLUMNS.filter((k) => k !== 'entity_id') as (keyof Contribution['cell'])[];

/** A rollup cell a page of the replay adds to: its cell, its entity and its counters summed in feed order. */
interface PageCell {
  cell: Contribution['cell'];
  entityId: string;
  sums: number[];
}

/** What a bulk rebuild keeps from page to page: brands' owners, and the answers and cells already written. */
interface Replay {
  owners: Map<number, { clientId: number | null }>;
  answers: SeenKeys;
  cells: SeenKeys;
}

/** The sizes of the sets of answers and cells written (2^n bits each: 4 MB and 8 MB by default). */
export interface ReplayFilterBits {
  answers: number;
  cells: number;
}

function replayOf(context: BulkContext, bits: ReplayFilterBits): Replay {
  let replay = context.memo.get('replay') as Replay | undefined;
  if (!replay) {
    replay = { owners: new Map(), answers: new SeenKeys(bits.answers), cells: new SeenKeys(bits.cells) };
    context.memo.set('replay', replay);
  }
  return replay;
}

/**
 * The bulk rebuild (issue 33 part 2): each page's analyses are summed per rollup cell in memory, in
 * feed order, as a live batch sums its deltas (an answer re-analysed within the page: its earlier
 * contribution taken out, the new one added), and COPYed straight into the shadow tables (loaded
 * without their indexes, built once the feed is read): a cell's row and an answer's contribution
 * (`answer_rollup_sources`) the first time the replay meets them. What it may have met on an earlier
 * page (a set of the keys written, in fixed memory, `SeenKeys`: certain when it says no) goes to
 * staging instead: `cells`, a later page's sums of a cell (with the page's `seq`), and `sources`, an
 * answer's latest analysis in the page (with its `seq`: its place in the feed). `finish` then adds
 * each staged cell's sums to its row (or inserts it: the set's rare false positive), keeps each
 * re-analysed answer's latest contribution and takes every earlier one out of its cells, as the live
 * projector does (a cell no later analysis touches stays, at zero). Row for row what `apply` leaves;
 * the float sums may differ in the last bits (added per page then per cell, as `apply`'s depend on
 * where its batches end) —
 * checked by projections/visibility/rollup-rebuilds.int.spec.ts (also with sets of a few bits,
 * where nearly every key goes through staging).
 */
export const rollupsBulkRebuild = (bits: ReplayFilterBits = { answers: 25, cells: 26 }): BulkRebuild => ({
  staging: {
    sources: 'seq bigint NOT NULL, result_id text NOT NULL, contribution jsonb NOT NULL',
    cells: `seq bigint NOT NULL, ${ROLLUP_COLUMNS.map((c) => `${c} ${ANSWER_DAILY_ROLLUPS.columns[c]} NOT NULL`).join(', ')}`,
    superseded: 'contribution jsonb NOT NULL',
  },
  direct: {
    [ANSWER_DAILY_ROLLUPS.table]: ANSWER_DAILY_ROLLUPS.columns,
    [ANSWER_ROLLUP_SOURCES.table]: ANSWER_ROLLUP_SOURCES.columns,
  },
  async stage(events, seq, context) {
    const analysed = analysedIn(events);
    const replay = replayOf(context, bits);
    // Brands' owners read once per rebuild (a brand's client is the same for the whole replay).
    const unknown = [...new Set(analysed.map((a) => a.data.brandId))].filter((b) => !replay.owners.has(b));
    for (const [id, owner] of await brandOwners(context.query, unknown)) replay.owners.set(id, owner);
    const sources: unknown[][] = [];
    const stagedSources: unknown[][] = [];
    const cells = new Map<string, PageCell>();
    /** Adds (or, sign -1, takes out) a contribution's counters to its cells, in feed order. */
    const addCells = (c: Contribution, sign: 1 | -1) => {
      // The cell's key (NUL never occurs in a text value).
      const prefix = ANSWER_CELL_KEY.map((k) => c.cell[k]).join('\0') + '\0';
      for (const [entityId, counters] of Object.entries(c.entities)) {
        const key = prefix + entityId;
        let cell = cells.get(key);
        if (!cell) cells.set(key, (cell = { cell: c.cell, entityId, sums: ROLLUP_COUNTER_COLUMNS.map(() => 0) }));
        for (let i = 0; i < cell.sums.length; i++) cell.sums[i] += sign * (counters[i] ?? 0);
      }
    };
    /** The answers of this page: the row that holds each one's contribution, and that contribution. */
    const answers = new Map<string, { row: unknown[]; staged: boolean; contribution: Contribution }>();
    for (const { id, at, data } of analysed) {
      const c = contributionOf(data, data.promptId, replay.owners.get(data.brandId)?.clientId ?? null);
      const earlier = answers.get(id);
      if (earlier) {
        // Re-analysed within the page: as a live batch does, the earlier contribution taken out of
        // its cells (a cell only it touched stays, at zero) and the answer's row given the latest.
        addCells(earlier.contribution, -1);
        if (earlier.staged) earlier.row.splice(0, 3, seq + at, id, c);
        else earlier.row.splice(0, 2, id, c);
        earlier.contribution = c;
      } else {
        const staged = replay.answers.add(id);
        const row = staged ? [seq + at, id, c] : [id, c];
        (staged ? stagedSources : sources).push(row);
        answers.set(id, { row, staged, contribution: c });
      }
      addCells(c, 1);
    }
    const rollups: unknown[][] = [];
    const stagedCells: unknown[][] = [];
    for (const [key, { cell, entityId, sums }] of cells) {
      const row = [...CELL_COLUMNS.map((c) => (c === 'entity_id' ? entityId : cell[c as keyof Contribution['cell']])), ...sums];
      if (replay.cells.add(key)) stagedCells.push([seq, ...row]);
      else rollups.push(row);
    }
    return { [ANSWER_DAILY_ROLLUPS.table]: rollups, [ANSWER_ROLLUP_SOURCES.table]: sources, cells: stagedCells, sources: stagedSources };
  },
  async finish(context) {
    const sources = context.staging('sources');
    const cells = context.staging('cells');
    const superseded = context.staging('superseded');
    const rollups = context.table(ANSWER_DAILY_ROLLUPS.table);
    const contributions = context.table(ANSWER_ROLLUP_SOURCES.table);
    const [staged] = await context.query<{ cells: boolean; sources: boolean }>(`SELECT EXISTS (SELECT FROM ${cells}) AS cells, EXISTS (SELECT FROM ${sources}) AS sources`);
    // Sorting and hashing in memory, not on disk (this transaction only).
    await context.query(`SELECT set_config('work_mem', '256MB', true)`);
    if (staged.cells) {
      // A cell met on several pages: the later pages' sums (in feed order) added to the first page's
      // row, grouped by sort so that each cell's floats are added in feed order, as the live batches
      // add them (hash aggregation back for what follows: the derived tables' GROUP BY of every row).
      await context.query(`ANALYZE ${cells}`);
      await context.query(`SELECT set_config('enable_hashagg', 'off', true)`);
      const keys = [...KEY_COLUMNS, ...CELL_COLUMNS.filter((c) => !KEY_COLUMNS.includes(c))].join(', ');
      await context.query(
        `INSERT INTO ${rollups} AS r (${ROLLUP_COLUMNS.join(', ')})
          SELECT ${CELL_COLUMNS.join(', ')}, ${ROLLUP_COUNTER_COLUMNS.map((c) => `sum(${c})`).join(', ')}
            FROM (SELECT * FROM ${cells} ORDER BY ${keys}, seq) AS c GROUP BY ${keys} ORDER BY ${keys}
          ON CONFLICT (${KEY_COLUMNS.join(', ')}) DO UPDATE SET ${ROLLUP_COUNTER_COLUMNS.map((c) => `${c} = r.${c} + excluded.${c}`).join(', ')}`,
      );
      await context.query(`SET LOCAL enable_hashagg TO DEFAULT`);
    }
    if (!staged.sources) return;
    // Re-analysed answers: every analysis but the latest is superseded, the one written directly
    // (always an answer's first) and the staged ones before the last.
    await context.query(`ANALYZE ${sources}`);
    await context.query(
      `INSERT INTO ${superseded} (contribution)
        SELECT contribution FROM (SELECT contribution, seq < max(seq) OVER (PARTITION BY result_id) AS earlier FROM ${sources}) s WHERE earlier
        UNION ALL
        SELECT d.contribution FROM ${contributions} d WHERE d.result_id IN (SELECT result_id FROM ${sources})`,
    );
    await context.query(`DELETE FROM ${contributions} WHERE result_id IN (SELECT result_id FROM ${sources})`);
    await context.query(`INSERT INTO ${contributions} (result_id, contribution) SELECT DISTINCT ON (result_id) result_id, contribution FROM ${sources} ORDER BY result_id, seq DESC`);
    // Each superseded contribution taken out of its cells, as the live projector does (a cell no
    // later analysis touches stays, at zero).
    const cellKeys = ANSWER_CELL_KEY;
    await context.query(
      `UPDATE ${rollups} r SET ${ROLLUP_COUNTER_COLUMNS.map((c) => `${c} = r.${c} - x.${c}`).join(', ')}
         FROM (SELECT ${cellKeys.map((k) => `(s.contribution -> 'cell' ->> '${k}')::${ANSWER_DAILY_ROLLUPS.columns[k]} AS ${k}`).join(', ')}, e.key AS entity_id,
                      ${ROLLUP_COUNTER_COLUMNS.map((c, i) => `sum(coalesce((e.value ->> ${i})::${ANSWER_DAILY_ROLLUPS.columns[c]}, 0)) AS ${c}`).join(', ')}
                 FROM ${superseded} s CROSS JOIN LATERAL jsonb_each(s.contribution -> 'entities') e
                GROUP BY ${[...cellKeys, 'e.key'].join(', ')}) x
        WHERE ${KEY_COLUMNS.map((k) => `r.${k} = x.${k}`).join(' AND ')}`,
    );
  },
});

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
  bulk: rollupsBulkRebuild(),
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
