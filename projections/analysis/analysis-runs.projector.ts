import type { RecordedEvent } from '@libs/event-store';
import { analysisRunEvents, answerEvents } from '@libs/analysis';
import { tableShape, upsertRows, type ProjectionContext, type Projector } from '@libs/projection-engine';
import { brandOwners } from '@libs/tenancy';

interface RunRow {
  id: number;
  organization_id: number;
  client_id: number | null;
  brand_id: number;
  trigger: string;
  status: string;
  queries: string[];
  providers: string[];
  answers_expected: number;
  answers_recorded: number;
  answers_failed: number;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

const runs = tableShape<RunRow>({
  table: 'analysis_runs',
  columns: {
    id: 'bigint',
    organization_id: 'bigint',
    client_id: 'bigint',
    brand_id: 'bigint',
    trigger: 'text',
    status: 'text',
    queries: 'jsonb',
    providers: 'text[]',
    answers_expected: 'integer',
    answers_recorded: 'integer',
    answers_failed: 'integer',
    created_at: 'timestamptz',
    started_at: 'timestamptz',
    completed_at: 'timestamptz',
  },
  key: ['id'],
});

const COLUMNS = Object.keys(runs.columns).join(', ');
const fromSql = (r: Record<string, unknown>): RunRow => ({
  ...(r as unknown as RunRow),
  id: Number(r.id),
  organization_id: Number(r.organization_id),
  client_id: r.client_id === null ? null : Number(r.client_id),
  brand_id: Number(r.brand_id),
  created_at: (r.created_at as Date).toISOString(),
  started_at: r.started_at === null ? null : (r.started_at as Date).toISOString(),
  completed_at: r.completed_at === null ? null : (r.completed_at as Date).toISOString(),
});

/**
 * `analysis_runs`: one row per run, the record GET /analysis-runs returns. Its counts follow the
 * answers' ending events; its status goes queued → running (started, or a first answer) → the
 * completed event's status.
 */
export const analysisRunsProjector: Projector = {
  name: 'analysis_runs',
  handles: ['analysis_run.requested', 'analysis_run.started', 'analysis_run.completed', 'answer.recorded', 'answer.failed'],
  tables: ['analysis_runs'],
  async apply(events: readonly RecordedEvent[], context: ProjectionContext): Promise<void> {
    const { query, table } = context;
    const typed = events.map((e) => analysisRunEvents.decode(e) ?? answerEvents.decode(e)).filter((e) => e !== null);
    const ids = [...new Set(typed.map((e) => e.data.runId))];
    const existing: Record<string, unknown>[] = await query(`SELECT ${COLUMNS} FROM ${table('analysis_runs')} WHERE id = ANY($1::bigint[])`, [ids]);
    const rows = new Map<number, RunRow>(existing.map((r) => [Number(r.id), fromSql(r)]));
    const owners = await brandOwners(query, typed.flatMap((e) => (e.type === 'analysis_run.requested' ? [e.data.brandId] : [])));
    const changed = new Set<number>();
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
    await upsertRows(context, runs, [...changed].map((id) => rows.get(id)!));
  },
};
