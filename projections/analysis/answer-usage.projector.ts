import type { RecordedEvent } from '@libs/event-store';
import { ANSWER_USAGE, answerEvents, resultId, type AnswerUsageRow } from '@libs/analysis';
import { upsertRows, type ProjectionContext, type Projector } from '@libs/projection-engine';
import { brandOwners } from '@libs/tenancy';

/**
 * `answer_usage`: the tokens each live answer's provider reported (issue 32 part 2). Costs are not
 * stored: they are computed when read from these tokens and the price table in force on the
 * answer's day, so a price change never rewrites history. Answers of the recorded source cost
 * nothing and have no row; a reply without a usage figure counts 0 for it. An answer is recorded
 * once, so a replayed event rewrites the same row.
 */
export const answerUsageProjector: Projector = {
  name: 'answer_usage',
  handles: ['answer.recorded'],
  tables: [ANSWER_USAGE.table],
  async apply(events: readonly RecordedEvent[], context: ProjectionContext): Promise<void> {
    const recorded = events.map((e) => answerEvents.decode(e)).flatMap((e) => (e?.type === 'answer.recorded' && e.data.source === 'live' ? [e.data] : []));
    if (!recorded.length) return;
    const owners = await brandOwners(context.query, recorded.map((d) => d.brandId));
    const rows: AnswerUsageRow[] = recorded.map((d) => ({
      result_id: resultId(d.runId, d.n),
      organization_id: d.organizationId,
      client_id: owners.get(d.brandId)?.clientId ?? null,
      brand_id: d.brandId,
      run_id: d.runId,
      provider: d.provider,
      asked_at: d.askedAt,
      country: d.country ?? null,
      language: d.language ?? null,
      model: d.model,
      input_tokens: d.usage?.inputTokens ?? 0,
      cached_input_tokens: d.usage?.cachedInputTokens ?? 0,
      output_tokens: d.usage?.outputTokens ?? 0,
    }));
    await upsertRows(context, ANSWER_USAGE, rows);
  },
};
