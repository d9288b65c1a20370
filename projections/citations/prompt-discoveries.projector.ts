import type { RecordedEvent } from '@libs/event-store';
import { answerEvents, resultId, type AnswerRecorded } from '@libs/analysis';
import { discoverQuestions } from '@libs/citations';
import { tableShape, upsertRows, type ProjectionContext, type Projector } from '@libs/projection-engine';
import { brandOwners } from '@libs/tenancy';

interface DiscoveryRow {
  result_id: string;
  question_key: string;
  origin: string;
  organization_id: number;
  client_id: number | null;
  brand_id: number;
  provider: string;
  prompt_id: number | null;
  query: string;
  country: string | null;
  language: string | null;
  question: string;
  asked_at: string;
  day: string;
}

export const PROMPT_DISCOVERIES = tableShape<DiscoveryRow>({
  table: 'prompt_discoveries',
  columns: {
    result_id: 'text',
    question_key: 'text',
    origin: 'text',
    organization_id: 'bigint',
    client_id: 'bigint',
    brand_id: 'bigint',
    provider: 'text',
    prompt_id: 'bigint',
    query: 'text',
    country: 'text',
    language: 'text',
    question: 'text',
    asked_at: 'timestamptz',
    day: 'date',
  },
  key: ['result_id', 'question_key', 'origin'],
});

/**
 * `prompt_discoveries`: the questions found in each recorded answer (libs/citations
 * discoverQuestions: the engine's follow-up questions, questions in the text), one row per
 * answer, question and origin. An answer's rows are replaced if it is seen again.
 */
export const promptDiscoveriesProjector: Projector = {
  name: 'prompt_discoveries',
  handles: ['answer.recorded'],
  tables: [PROMPT_DISCOVERIES.table],
  async apply(events: readonly RecordedEvent[], context: ProjectionContext): Promise<void> {
    const recorded = new Map<string, AnswerRecorded['data']>();
    for (const e of events) {
      const event = answerEvents.decode(e);
      if (event?.type === 'answer.recorded') recorded.set(resultId(event.data.runId, event.data.n), event.data);
    }
    if (!recorded.size) return;
    const owners = await brandOwners(context.query, [...recorded.values()].map((d) => d.brandId));
    await context.query(`DELETE FROM ${context.table('prompt_discoveries')} t USING unnest($1::text[]) AS u(id) WHERE t.result_id = u.id`, [[...recorded.keys()]]);
    const rows: DiscoveryRow[] = [];
    for (const [id, d] of recorded) {
      for (const q of discoverQuestions({ text: d.text, raw: d.raw, query: d.query })) {
        rows.push({
          result_id: id,
          question_key: q.key,
          origin: q.origin,
          organization_id: d.organizationId,
          client_id: owners.get(d.brandId)?.clientId ?? null,
          brand_id: d.brandId,
          provider: d.provider,
          prompt_id: d.promptId,
          query: d.query,
          country: d.country ?? null,
          language: d.language ?? null,
          question: q.question,
          asked_at: d.askedAt,
          day: d.askedAt.slice(0, 10),
        });
      }
    }
    for (let k = 0; k < rows.length; k += 5000) await upsertRows(context, PROMPT_DISCOVERIES, rows.slice(k, k + 5000));
  },
};
