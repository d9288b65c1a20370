import type { RecordedEvent } from '@libs/event-store';
import { ANALYSIS_RUNS, analysisRunEvents, answerEvents, runRecordOf, type AnalysisRunRow } from '@libs/analysis';
import { derivedUuid, dispatchWebhookEvents, organizationsSubscribedTo } from '@libs/webhooks';
import { columnList, rowReader, upsertRows, type ProjectionContext, type Projector } from '@libs/projection-engine';
import { brandOwners } from '@libs/tenancy';

const COLUMNS = columnList(ANALYSIS_RUNS);
const fromSql = rowReader(ANALYSIS_RUNS);

/**
 * `analysis_runs`: one row per run, the record GET /analysis-runs returns. Its counts follow the
 * answers' ending events; its status goes queued → running (started, or a first answer) → the
 * completed event's status. A run's end raises the webhook event `analysis_run.completed` (data:
 * the run record), written in the batch's transaction, once per run (its event id is the run's).
 */
export const analysisRunsProjector: Projector = {
  name: 'analysis_runs',
  handles: ['analysis_run.requested', 'analysis_run.started', 'analysis_run.completed', 'answer.recorded', 'answer.failed'],
  tables: [ANALYSIS_RUNS.table],
  async apply(events: readonly RecordedEvent[], context: ProjectionContext): Promise<void> {
    const { query, table } = context;
    const typed = events.map((e) => analysisRunEvents.decode(e) ?? answerEvents.decode(e)).filter((e) => e !== null);
    const ids = [...new Set(typed.map((e) => e.data.runId))];
    const existing: Record<string, unknown>[] = await query(`SELECT ${COLUMNS} FROM ${table(ANALYSIS_RUNS.table)} WHERE id = ANY($1::bigint[])`, [ids]);
    const rows = new Map<number, AnalysisRunRow>(existing.map((r) => [Number(r.id), fromSql(r)]));
    const owners = await brandOwners(query, typed.flatMap((e) => (e.type === 'analysis_run.requested' ? [e.data.brandId] : [])));
    const changed = new Set<number>();
    const ended: { id: number; at: string }[] = [];
    for (const e of typed) {
      const id = e.data.runId;
      if (e.type === 'analysis_run.requested') {
        if (rows.has(id)) continue;
        const d = e.data;
        rows.set(id, {
          id,
          organization_id: d.organizationId,
          client_id: owners.get(d.brandId)?.clientId ?? null,
          brand_id: d.brandId,
          trigger: d.trigger,
          status: 'queued',
          queries: d.queries,
          providers: d.providers,
          answers_expected: d.items.length,
          answers_recorded: 0,
          answers_failed: 0,
          created_at: d.requestedAt,
          started_at: null,
          completed_at: null,
          reason: null,
          answers_not_asked: 0,
        });
        changed.add(id);
        continue;
      }
      const row = rows.get(id);
      if (!row) continue; // an answer of a run this projection never saw requested (cannot happen in feed order)
      if (e.type === 'analysis_run.started') {
        row.started_at ??= e.data.startedAt;
        if (row.status === 'queued') row.status = 'running';
      } else if (e.type === 'analysis_run.completed') {
        row.status = e.data.status;
        row.answers_recorded = e.data.answersRecorded;
        row.answers_failed = e.data.answersFailed;
        row.completed_at = e.data.completedAt;
        row.reason = e.data.reason ?? null;
        row.answers_not_asked = e.data.answersNotAsked ?? 0;
        ended.push({ id, at: e.data.completedAt });
      } else if (e.type === 'answer.recorded' || e.type === 'answer.failed') {
        if (row.completed_at === null) {
          if (e.type === 'answer.recorded') row.answers_recorded++;
          else row.answers_failed++;
          if (row.status === 'queued') row.status = 'running';
          row.started_at ??= e.data.askedAt;
        }
      }
      changed.add(id);
    }
    await upsertRows(context, ANALYSIS_RUNS, [...changed].map((id) => rows.get(id)!));
    if (context.rebuilding || !ended.length) return;
    const subscribed = await organizationsSubscribedTo(query, 'analysis_run.completed', ended.map((r) => rows.get(r.id)!.organization_id));
    if (!subscribed.size) return;
    await dispatchWebhookEvents(
      query,
      ended.flatMap(({ id, at }) => {
        const row = rows.get(id)!;
        if (!subscribed.has(row.organization_id)) return [];
        const timestamp = new Date(at).toISOString();
        return [
          {
            event_id: derivedUuid(`analysis-run:${id}`, 'analysis_run.completed'),
            organization_id: row.organization_id,
            client_id: row.client_id,
            type: 'analysis_run.completed',
            body: JSON.stringify({ type: 'analysis_run.completed', timestamp, data: runRecordOf(row) }),
            event_at: timestamp,
          },
        ];
      }),
    );
  },
};
