import type { RecordedEvent } from '@libs/event-store';
import { ANALYSIS_RESULTS, answerEvents, resultId, type AnalysisResultRow, type AnswerEvent } from '@libs/analysis';
import { upsertRows, type ProjectionContext, type Projector } from '@libs/projection-engine';
import { brandOwners } from '@libs/tenancy';

/** The columns an analysis sets on its answer's row (a row recorded in an earlier batch is updated in place). */
const ANALYSED = ['engine_version', 'analysed_at', 'citations', 'entities', 'claims'] as const;
const ANALYSED_RECORDS = ['id', ...ANALYSED].map((c) => `${c} ${ANALYSIS_RESULTS.columns[c as keyof AnalysisResultRow]}`).join(', ');

/**
 * `analysis_results`: one row per answer (run and item), the result record of DESIGN §13.1:
 * written when the answer is recorded or failed; its citations and entities are the latest
 * analysis (a re-analysis replaces them).
 */
export const analysisResultsProjector: Projector = {
  name: 'analysis_results',
  handles: ['answer.recorded', 'answer.failed', 'answer.analysed'],
  tables: [ANALYSIS_RESULTS.table],
  async apply(events: readonly RecordedEvent[], context: ProjectionContext): Promise<void> {
    const typed = events.map((e) => answerEvents.decode(e)).filter((e): e is AnswerEvent => e !== null);
    const owners = await brandOwners(context.query, typed.map((e) => e.data.brandId));
    const rows = new Map<string, AnalysisResultRow>();
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
      // A judgement changes the results through the analysis appended with it.
      if (e.type === 'answer.judged') continue;
      const d = e.data;
      const base = { id, run_id: d.runId, n: d.n, organization_id: d.organizationId, client_id: owners.get(d.brandId)?.clientId ?? null, brand_id: d.brandId, prompt_id: d.promptId, query: d.query, provider: d.provider, country: d.country ?? null, language: d.language ?? null, asked_at: d.askedAt };
      rows.set(
        id,
        e.type === 'answer.recorded'
          ? { ...base, model: e.data.model, source: e.data.source, status: 'answered', answer: e.data.text, error: null, latency_ms: e.data.latencyMs, engine_version: null, analysed_at: null, citations: [], entities: [], claims: [] }
          : { ...base, model: null, source: null, status: 'failed', answer: null, error: e.data.reason, latency_ms: null, engine_version: null, analysed_at: null, citations: [], entities: [], claims: [] },
      );
    }
    await upsertRows(context, ANALYSIS_RESULTS, [...rows.values()]);
    if (!analyses.size) return;
    // Updated in place, all in one statement (the rows travel as one JSON parameter).
    await context.query(
      `UPDATE ${context.table(ANALYSIS_RESULTS.table)} AS t SET ${ANALYSED.map((c) => `${c} = x.${c}`).join(', ')}
         FROM json_to_recordset($1::json) AS x(${ANALYSED_RECORDS}) WHERE t.id = x.id`,
      [JSON.stringify([...analyses].map(([id, d]) => ({ id, engine_version: d.engineVersion, analysed_at: d.analysedAt, citations: d.citations, entities: d.entities, claims: d.claims ?? [] })))],
    );
  },
};
