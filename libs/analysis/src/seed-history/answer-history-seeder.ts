import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { appendNewStreams, EVENT_STORE, type EventStore, type NewStream } from '@libs/event-store';
import { answerStreamId, runStreamId, type Provider } from '../domain';
import { analyseAnswer, type TrackedBrand } from '../shared/analyse-answer';
import { analysisRunRunner, answerRunner, type AnalysisRunRunner, type AnswerRunner } from '../shared/analysis-streams';
import { RecordedEngine } from '../shared/engines/recorded-engine';
import { runRequested } from '../shared/run-requests';

const DAY = 86_400_000;
/** Streams written per bulk append. */
const STREAMS_PER_APPEND = 2000;

export interface HistoryRequest {
  organizationId: number;
  tracked: TrackedBrand;
  prompts: readonly { id: number; query: string; providers: readonly Provider[] }[];
  /** Days of daily runs, ending with `lastDay` (a UTC day). */
  days: number;
  lastDay: Date;
  /** Runs a day (default 1): the first at 06:00 UTC, the others spread over the next 16 hours. */
  runsPerDay?: number;
  /** A story told by the history: the brand's standing moved for a provider, query and UTC day number (see RecordedEngine). */
  standingShift?: (provider: Provider, query: string, day: number) => number;
}

export interface HistorySeeded {
  runs: number;
  answers: number;
  /** Milliseconds spent generating and analysing answers, and appending events (an append overlaps the next batch's analysis). */
  analyseMs: number;
  appendMs: number;
}

/**
 * Writes a brand's history of daily scheduled runs from the `recorded` source straight into the
 * event store: for each day a run stream (requested, started, completed) and one stream per
 * answer (recorded, analysed), exactly the events live runs write, so projections and analytics
 * cannot tell them apart except by `source: "recorded"` and trigger `seed`: the runs' and the
 * answers' deciders decide every stream (request, start, complete; record, analyse), with no read
 * since every stream is new, and the streams are appended in bulk where the store can (all new,
 * in one transaction per batch). Deterministic: the same brand, prompts and days give the same answers.
 */
@Injectable()
export class AnswerHistorySeeder {
  private readonly runs: AnalysisRunRunner;
  private readonly answers: AnswerRunner;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {
    this.runs = analysisRunRunner(store);
    this.answers = answerRunner(store);
  }

  async seed(request: HistoryRequest): Promise<HistorySeeded> {
    const { organizationId, tracked } = request;
    const brandId = tracked.brand.id;
    const entities = [
      { kind: 'brand' as const, name: tracked.brand.name, domains: [tracked.brand.domain] },
      ...tracked.competitors.map((c) => ({ kind: 'competitor' as const, name: c.name, domains: [c.domain] })),
    ];
    const engines = new Map<Provider, RecordedEngine>();
    const engine = (p: Provider) => engines.get(p) ?? engines.set(p, new RecordedEngine(p, request.standingShift && ((query, day) => request.standingShift!(p, query, day)))).get(p)!;
    const runsPerDay = Math.max(1, Math.floor(request.runsPerDay ?? 1));
    const ids: { id: string }[] = await this.dataSource.query(`SELECT nextval('analysis_run_ids') AS id FROM generate_series(1, $1)`, [request.days * runsPerDay]);
    const questions = request.prompts.map((p) => ({ promptId: p.id, query: p.query, providers: p.providers }));
    const firstDay = Math.floor(request.lastDay.getTime() / DAY) - request.days + 1;
    let pending: NewStream[] = [];
    // One append in flight while the next batch is generated and analysed (the append waits on the database).
    let inFlight: Promise<void> = Promise.resolve();
    const result: HistorySeeded = { runs: 0, answers: 0, analyseMs: 0, appendMs: 0 };
    const meta = { organizationId, actor: 'seed:demo' };

    for (let k = 0; k < request.days * runsPerDay; k++) {
      const d = Math.floor(k / runsPerDay);
      const runId = Number(ids[k].id);
      // 06:00 UTC, as a daily schedule would; further runs of the day every 16 h / runsPerDay.
      const start = (firstDay + d) * DAY + 6 * 3_600_000 + (k % runsPerDay) * Math.floor((16 * 3_600_000) / runsPerDay);
      const requested = runRequested(runId, { organizationId, brandId, trigger: 'seed', questions, requestedAt: new Date(start) });
      const items = requested.items;
      const t0 = performance.now();
      for (const item of items) {
        const askedAt = new Date(start + 1000 + item.n * 250);
        const answer = await engine(item.provider).ask({ query: item.query, askedAt, entities });
        const citations = answer.citations.map((c) => ({ url: c.url, title: c.title }));
        const analysis = analyseAnswer(answer.text, citations, tracked);
        const key = { runId, n: item.n, organizationId, brandId, promptId: item.promptId, query: item.query, provider: item.provider };
        pending.push(
          this.answers.decideNew(
            answerStreamId(runId, item.n),
            [
              { kind: 'record', answer: { ...key, model: answer.model, source: answer.source, text: answer.text, providerCitations: citations, usage: null, latencyMs: 0, askedAt: askedAt.toISOString(), raw: JSON.stringify(answer.raw) } },
              { kind: 'analyse', analysis, analysedAt: askedAt.toISOString() },
            ],
            meta,
          ),
        );
      }
      result.analyseMs += performance.now() - t0;
      const end = new Date(start + 1000 + items.length * 250 + 1000).toISOString();
      pending.push(
        this.runs.decideNew(
          runStreamId(runId),
          [
            { kind: 'request', run: requested },
            { kind: 'start', startedAt: new Date(start).toISOString() },
            { kind: 'complete', answersRecorded: items.length, answersFailed: 0, completedAt: end },
          ],
          meta,
        ),
      );
      result.runs++;
      result.answers += items.length;
      if (pending.length >= STREAMS_PER_APPEND) {
        await inFlight;
        inFlight = this.flush(pending, result);
        pending = [];
      }
    }
    await inFlight;
    await this.flush(pending, result);
    return result;
  }

  private async flush(pending: readonly NewStream[], result: HistorySeeded): Promise<void> {
    if (!pending.length) return;
    const t0 = performance.now();
    await appendNewStreams(this.store, pending);
    result.appendMs += performance.now() - t0;
  }
}
