import type { RecordedEvent } from '@libs/event-store';
import { ANSWER_USAGE, answerEvents, judgeBilling, resultId, type AnswerUsageRow } from '@libs/analysis';
import { upsertRows, type ProjectionContext, type Projector } from '@libs/projection-engine';
import { brandOwners } from '@libs/tenancy';

/**
 * `answer_usage`: the tokens each live answer's provider reported (issue 32 part 2). Costs are not
 * stored: they are computed when read from these tokens and the price table in force on the
 * answer's day, so a price change never rewrites history. Answers of the recorded source cost
 * nothing and have no row; a reply without a usage figure counts 0 for it. An answer is recorded
 * once, so a replayed event rewrites the same row.
 * Each judge call that asked (an `answer.judged` with a usage figure: not cached, not a fallback)
 * is a row too, `call` `judge:<cache key>`, at the provider and model it is billed at
 * (judgeBilling) and on the day it was judged.
 */
export const answerUsageProjector: Projector = {
  name: 'answer_usage',
  handles: ['answer.recorded', 'answer.judged'],
  tables: [ANSWER_USAGE.table],
  async apply(events: readonly RecordedEvent[], context: ProjectionContext): Promise<void> {
    const decoded = events.map((e) => answerEvents.decode(e));
    const recorded = decoded.flatMap((e) => (e?.type === 'answer.recorded' && e.data.source === 'live' ? [e.data] : []));
    const judged = decoded.flatMap((e) => {
      if (e?.type !== 'answer.judged' || !e.data.usage) return [];
      const billing = judgeBilling(e.data.labeller);
      return billing ? [{ d: e.data, usage: e.data.usage, billing }] : [];
    });
    if (!recorded.length && !judged.length) return;
    const owners = await brandOwners(context.query, [...recorded.map((d) => d.brandId), ...judged.map((j) => j.d.brandId)]);
    type Key = { runId: number; n: number; organizationId: number; brandId: number; country?: string | null; language?: string | null };
    const row = (d: Key, provider: string, at: string, call: string, model: string, input: number | null, cached: number | null, output: number | null): AnswerUsageRow => ({
      result_id: resultId(d.runId, d.n),
      organization_id: d.organizationId,
      client_id: owners.get(d.brandId)?.clientId ?? null,
      brand_id: d.brandId,
      run_id: d.runId,
      provider,
      asked_at: at,
      country: d.country ?? null,
      language: d.language ?? null,
      call,
      model,
      input_tokens: input ?? 0,
      cached_input_tokens: cached ?? 0,
      output_tokens: output ?? 0,
    });
    await upsertRows(context, ANSWER_USAGE, [
      ...recorded.map((d) => row(d, d.provider, d.askedAt, 'answer', d.model, d.usage?.inputTokens ?? null, d.usage?.cachedInputTokens ?? null, d.usage?.outputTokens ?? null)),
      ...judged.map(({ d, usage, billing }) => row(d, billing.provider, d.judgedAt, `judge:${d.cacheKey}`, billing.model, usage.inputTokens, 0, usage.outputTokens)),
    ]);
  },
};
