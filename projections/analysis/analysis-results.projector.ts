import type { RecordedEvent } from '@libs/event-store';
import { answerEvents, resultId, type AnswerEvent } from '@libs/analysis';
import { tableShape, upsertRows, type ProjectionContext, type Projector } from '@libs/projection-engine';
import { brandOwners } from '@libs/tenancy';

interface ResultRow {
  id: string;
  run_id: number;
  n: number;
  organization_id: number;
  client_id: number | null;
  brand_id: number;
  prompt_id: number | null;
  query: string;
  provider: string;
  model: string | null;
  source: string | null;
  status: string;
  answer: string | null;
  error: string | null;
  asked_at: string;
  latency_ms: number | null;
  engine_version: string | null;
  analysed_at: string | null;
  citations: unknown[];
  entities: unknown[];
  claims: unknown[];
}

const results = tableShape<ResultRow>({
  table: 'analysis_results',
  columns: {
    id: 'text',
    run_id: 'bigint',
    n: 'integer',
    organization_id: 'bigint',
    client_id: 'bigint',
    brand_id: 'bigint',
    prompt_id: 'bigint',
    query: 'text',
    provider: 'text',
    model: 'text',
    source: 'text',
    status: 'text',
    answer: 'text',
    error: 'text',
    asked_at: 'timestamptz',
    latency_ms: 'integer',
    engine_version: 'text',
    analysed_at: 'timestamptz',
    citations: 'jsonb',
    entities: 'jsonb',
    claims: 'jsonb',
  },
  key: ['id'],
});

/**
 * `analysis_results`: one row per answer (run and item), the result record of DESIGN §13.1:
 * written when the answer is recorded or failed; its citations and entities are the latest
 * analysis (a re-analysis replaces them).
 */
export const analysisResultsProjector: Projector = {
  name: 'analysis_results',
  handles: ['answer.recorded', 'answer.failed', 'answer.analysed'],
  tables: ['analysis_results'],
  async apply(events: readonly RecordedEvent[], context: ProjectionContext): Promise<void> {
    const typed = events.map((e) => answerEvents.decode(e)).filter((e): e is AnswerEvent => e !== null);
    const owners = await brandOwners(context.query, typed.map((e) => e.data.brandId));
    const rows = new Map<string, ResultRow>();
    // Analyses of answers recorded in earlier batches (and re-analyses): the latest per answer.
    const analyses = new Map<string, Extract<AnswerEvent, { type: 'answer.analysed' }>['data']>();
    for (const e of typed) {
      const id = resultId(e.data.runId, e.data.n);
      if (e.type === 'answer.analysed') {
        const row = rows.get(id);
        if (row) {
          row.engine_version = e.data.engineVersion;
          row.analysed_at = e.data.analysedAt;
          row.citations = e.data.citations;
          row.entities = e.data.entities;
          row.claims = e.data.claims ?? [];
        } else analyses.set(id, e.data);
        continue;
      }
      const d = e.data;
      const base = { id, run_id: d.runId, n: d.n, organization_id: d.organizationId, client_id: owners.get(d.brandId)?.clientId ?? null, brand_id: d.brandId, prompt_id: d.promptId, query: d.query, provider: d.provider, asked_at: d.askedAt };
      rows.set(
        id,
        e.type === 'answer.recorded'
          ? { ...base, model: e.data.model, source: e.data.source, status: 'answered', answer: e.data.text, error: null, latency_ms: e.data.latencyMs, engine_version: null, analysed_at: null, citations: [], entities: [], claims: [] }
          : { ...base, model: null, source: null, status: 'failed', answer: null, error: e.data.reason, latency_ms: null, engine_version: null, analysed_at: null, citations: [], entities: [], claims: [] },
      );
    }
    await upsertRows(context, results, [...rows.values()]);
    if (!analyses.size) return;
    // Updated in place, all in one statement (the rows travel as one JSON parameter).
    await context.query(
      `UPDATE ${context.table('analysis_results')} AS t SET engine_version = x.engine_version, analysed_at = x.analysed_at, citations = x.citations, entities = x.entities, claims = x.claims
         FROM jsonb_to_recordset($1::jsonb) AS x(id text, engine_version text, analysed_at timestamptz, citations jsonb, entities jsonb, claims jsonb) WHERE t.id = x.id`,
      [JSON.stringify([...analyses].map(([id, d]) => ({ id, engine_version: d.engineVersion, analysed_at: d.analysedAt, citations: d.citations, entities: d.entities, claims: d.claims ?? [] })))],
    );
  },
};
