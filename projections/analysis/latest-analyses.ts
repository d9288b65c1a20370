import type { RecordedEvent } from '@libs/event-store';
import { answerEvents, resultId, type AnswerAnalysed, type AnswerRowBase } from '@libs/analysis';
import { upsertRows, type ProjectionContext, type TableShape } from '@libs/projection-engine';
import { brandOwners, type BrandOwner } from '@libs/tenancy';

/**
 * Replaces the rows of the answers analysed in a batch: the latest analysis of each answer wins
 * (a re-analysis appends a newer `answer.analysed`), its old rows are deleted and its new rows
 * written, in the batch's transaction.
 */
export async function replaceAnswerRows<Row extends AnswerRowBase>(
  events: readonly RecordedEvent[],
  context: ProjectionContext,
  shape: TableShape<Row>,
  rowsOf: (analysed: AnswerAnalysed['data'], base: AnswerRowBase) => Row[],
): Promise<void> {
  const latest = new Map<string, AnswerAnalysed>();
  for (const e of events) {
    const event = answerEvents.decode(e);
    if (event?.type === 'answer.analysed') latest.set(resultId(event.data.runId, event.data.n), event);
  }
  if (!latest.size) return;
  const owners: Map<number, BrandOwner> = await brandOwners(context.query, [...latest.values()].map((e) => e.data.brandId));
  // A join with the id list, not `= ANY($1)`: as a prepared statement's generic plan, ANY over a
  // text[] parameter was planned as a scan of the whole table (180 ms a batch at 50,000 answers).
  await context.query(`DELETE FROM ${context.table(shape.table)} t USING unnest($1::text[]) AS u(id) WHERE t.result_id = u.id`, [[...latest.keys()]]);
  const rows: Row[] = [];
  for (const [id, { data: d }] of latest) {
    const base: AnswerRowBase = { result_id: id, organization_id: d.organizationId, client_id: owners.get(d.brandId)?.clientId ?? null, brand_id: d.brandId, run_id: d.runId, provider: d.provider, asked_at: d.askedAt, country: d.country ?? null, language: d.language ?? null };
    rows.push(...rowsOf(d, base));
  }
  for (let k = 0; k < rows.length; k += 5000) await upsertRows(context, shape, rows.slice(k, k + 5000));
}
