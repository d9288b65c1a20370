import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EVENT_STORE, ExpectedRevision, type EventStore, type EventToAppend } from '@libs/event-store';
import { answerStreamId, runOutcome, runStreamId, type Provider } from '../domain';
import { analyseAnswer, type TrackedBrand } from '../shared/analyse-answer';
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
 * cannot tell them apart except by `source: "recorded"` and trigger `seed`. Bulk appends where
 * the store has them. Deterministic: the same brand, prompts and days give the same answers.
 */
@Injectable()
export class AnswerHistorySeeder {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

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
    let pending: { streamId: string; events: EventToAppend[] }[] = [];
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
        pending.push({
          streamId: answerStreamId(runId, item.n),
          events: [
            {
              type: 'answer.recorded',
              data: { ...key, model: answer.model, source: answer.source, text: answer.text, providerCitations: citations, usage: null, latencyMs: 0, askedAt: askedAt.toISOString(), raw: JSON.stringify(answer.raw) },
              metadata: meta,
            },
            { type: 'answer.analysed', data: { runId, n: item.n, organizationId, brandId, promptId: item.promptId, query: item.query, provider: item.provider, askedAt: askedAt.toISOString(), analysedAt: askedAt.toISOString(), ...analysis }, metadata: meta },
          ],
        });
      }
      result.analyseMs += performance.now() - t0;
      const end = new Date(start + 1000 + items.length * 250 + 1000).toISOString();
      pending.push({
        streamId: runStreamId(runId),
        events: [
          { type: 'analysis_run.requested', data: { ...requested }, metadata: meta },
          { type: 'analysis_run.started', data: { runId, startedAt: new Date(start).toISOString() }, metadata: meta },
          { type: 'analysis_run.completed', data: { runId, status: runOutcome(items.length, 0), answersRecorded: items.length, answersFailed: 0, completedAt: end }, metadata: meta },
        ],
      });
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

  private async flush(pending: { streamId: string; events: EventToAppend[] }[], result: HistorySeeded): Promise<void> {
    if (!pending.length) return;
    const t0 = performance.now();
    if (this.store.appendToNewStreams) await this.store.appendToNewStreams(pending);
    else for (const p of pending) await this.store.appendToStream(p.streamId, p.events, ExpectedRevision.noStream);
    result.appendMs += performance.now() - t0;
  }
}
