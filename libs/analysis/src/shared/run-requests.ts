import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EVENT_STORE, type EventStore } from '@libs/event-store';
import { marketFields, runStreamId, type AnalysisRunRequested, type Market, type Provider, type RunItem, type RunTrigger } from '../domain';
import { analysisRunRunner, type AnalysisRunRunner } from './analysis-streams';

export interface RunRequest {
  organizationId: number;
  brandId: number;
  trigger: RunTrigger;
  auditRequestId?: number | null;
  /** Each query with the prompt it comes from (null: an audit request's), the providers to ask and the market asked for (none: the providers' default). */
  questions: { promptId: number | null; query: string; providers: readonly Provider[]; market?: Market }[];
  requestedAt?: Date;
  actor?: string;
}

/** The items of a run: every (query, provider) pair in order, numbered from 0. */
export function runItems(questions: RunRequest['questions']): RunItem[] {
  const items: RunItem[] = [];
  for (const q of questions) for (const provider of q.providers) items.push({ n: items.length, promptId: q.promptId, query: q.query, provider, ...marketFields(q.market ?? {}) });
  return items;
}

/** The `analysis_run.requested` data of a run: its items are every (query, provider) pair, numbered. */
export function runRequested(runId: number, input: RunRequest): AnalysisRunRequested['data'] {
  return {
    runId,
    organizationId: input.organizationId,
    brandId: input.brandId,
    trigger: input.trigger,
    auditRequestId: input.auditRequestId ?? null,
    queries: input.questions.map((q) => q.query),
    providers: [...new Set(input.questions.flatMap((q) => q.providers))],
    items: runItems(input.questions),
    requestedAt: (input.requestedAt ?? new Date()).toISOString(),
  };
}

/**
 * Starts analysis runs: allocates the run's id and has the run's decider record
 * `analysis_run.requested` on its new stream (no read: the id is new, so the append says "no
 * stream"). The jobs are enqueued by the dispatch reactor from that event, so a crash right after
 * the append loses nothing (the reactor gives it again; job ids make the enqueue idempotent).
 */
@Injectable()
export class RunRequests {
  private readonly runs: AnalysisRunRunner;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(EVENT_STORE) store: EventStore,
  ) {
    this.runs = analysisRunRunner(store);
  }

  async nextAuditRequestId(): Promise<number> {
    const [{ id }]: { id: string }[] = await this.dataSource.query(`SELECT nextval('audit_request_ids') AS id`);
    return Number(id);
  }

  async request(input: RunRequest): Promise<AnalysisRunRequested['data']> {
    const [{ id }]: { id: string }[] = await this.dataSource.query(`SELECT nextval('analysis_run_ids') AS id`);
    const runId = Number(id);
    const data = runRequested(runId, input);
    await this.runs.run(runStreamId(runId), () => ({ kind: 'request', run: data }), { organizationId: input.organizationId, actor: input.actor ?? null }, this.runs.newStream());
    return data;
  }
}
