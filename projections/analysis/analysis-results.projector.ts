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
    const analyses: Extract<AnswerEvent, { type: 'answer.analysed' }>[] = [];
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
        } else analyses.push(e);
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
    // Analyses of answers recorded in earlier batches (and re-analyses): update in place.
    for (const e of analyses) {
      await context.query(`UPDATE ${context.table('analysis_results')} SET engine_version = $2, analysed_at = $3, citations = $4::jsonb, entities = $5::jsonb, claims = $6::jsonb WHERE id = $1`, [
        resultId(e.data.runId, e.data.n),
        e.data.engineVersion,
        e.data.analysedAt,
        JSON.stringify(e.data.citations),
        JSON.stringify(e.data.entities),
        JSON.stringify(e.data.claims ?? []),
      ]);
    }
  },
};
