import type { RecordedEvent } from '@libs/event-store';
import { answerEvents, resultId, type AnswerAnalysed, type AnswerRowBase } from '@libs/analysis';
import { upsertRows, type ProjectionContext, type TableShape } from '@libs/projection-engine';
import { brandOwners, type BrandOwner } from '@libs/tenancy';

/** Where an answer's stream has its first `answer.analysed` (after the `answer.recorded` at 0). */
const FIRST_ANALYSIS_POSITION = 1n;

/**
 * Replaces the rows of the answers analysed in a batch: the latest analysis of each answer wins
 * (a re-analysis appends a newer `answer.analysed`), its old rows are deleted and its new rows
 * written, in the batch's transaction.
 *
 * An answer's first analysis has no old rows to delete: its stream (`answer-<runId>-<n>`, the only
 * one whose `answer.analysed` carries that result id) is written by the answer decider alone, which
 * puts the ending (`answer.recorded`) at stream position 0 and can analyse only a recorded answer
 * and judge only an analysed one, so the event at position 1 is the first `answer.analysed`, and
 * this table's rows of an answer come only from its `answer.analysed` events, each applied once and
 * in stream order. Only the answers whose latest analysis in the batch is a later one (a
 * re-analysis) are deleted; a batch of first analyses runs no DELETE.
 */
export async function replaceAnswerRows<Row extends AnswerRowBase>(
  events: readonly RecordedEvent[],
  context: ProjectionContext,
  shape: TableShape<Row>,
  rowsOf: (analysed: AnswerAnalysed['data'], base: AnswerRowBase) => Row[],
  also?: ReplacedRows<Row>,
): Promise<void> {
  const latest = new Map<string, AnswerAnalysed>();
  const firstAnalysis = new Set<string>();
  for (const e of events) {
    const event = answerEvents.decode(e);
    if (event?.type !== 'answer.analysed') continue;
    const id = resultId(event.data.runId, event.data.n);
    latest.set(id, event);
    if (e.streamPosition === FIRST_ANALYSIS_POSITION) firstAnalysis.add(id);
    else firstAnalysis.delete(id);
  }
  if (!latest.size) return;
  const owners: Map<number, BrandOwner> = await brandOwners(context.query, [...latest.values()].map((e) => e.data.brandId));
  // A join with the id list, not `= ANY($1)`: as a prepared statement's generic plan, ANY over a
  // text[] parameter was planned as a scan of the whole table (180 ms a batch at 50,000 answers).
  const reanalysed = [...latest.keys()].filter((id) => !firstAnalysis.has(id));
  const remove = `DELETE FROM ${context.table(shape.table)} t USING unnest($1::text[]) AS u(id) WHERE t.result_id = u.id`;
  let deleted: Record<string, unknown>[] = [];
  // RETURNING inside a WITH: a SELECT, whose rows every context's query returns as rows (TypeORM's gives a DELETE's as [rows, count]).
  if (reanalysed.length && also) deleted = await context.query(`WITH d AS (${remove} RETURNING ${also.returning}) SELECT * FROM d`, [reanalysed]);
  else if (reanalysed.length) await context.query(remove, [reanalysed]);
  const rows: Row[] = [];
  for (const [id, { data: d }] of latest) {
    const base: AnswerRowBase = { result_id: id, organization_id: d.organizationId, client_id: owners.get(d.brandId)?.clientId ?? null, brand_id: d.brandId, run_id: d.runId, provider: d.provider, asked_at: d.askedAt, country: d.country ?? null, language: d.language ?? null };
    rows.push(...rowsOf(d, base));
  }
  for (let k = 0; k < rows.length; k += 5000) await upsertRows(context, shape, rows.slice(k, k + 5000));
  also?.replaced(deleted, rows);
}

/** What a projector keeping more than the rows learns of a batch: the deleted rows (their `returning` columns, `t.` the table) and the rows written. */
export interface ReplacedRows<Row> {
  returning: string;
  replaced(deleted: readonly Record<string, unknown>[], written: readonly Row[]): void;
}
