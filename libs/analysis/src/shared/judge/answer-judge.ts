import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { Counter, register } from 'prom-client';
import { DataSource } from 'typeorm';
import { InjectConfig } from '@libs/config';
import { EVENT_STORE, type EventStore } from '@libs/event-store';
import { Queues } from '@libs/queue';
import { ANALYSIS_CONFIG, JUDGE_QUEUE_PROVIDER, type AnalysisConfig } from '../../analysis.config';
import { answerStreamId, type AnswerJudged } from '../../domain';
import { answerRunner, type AnswerRunner } from '../analysis-streams';
import { answerQueue } from '../answer-queues';
import { EngineError } from '../engines/answer-engine';
import { SpendLedger } from '../spend-ledger';
import { createJudgeClient, judgeBilling, type SentimentJudgeClient } from './judge-client';
import { JudgeSettingsRepository } from './judge-settings.repository';
import { JUDGE_PROMPT_VERSION, type JudgeLabel } from './judge-wire';

/** A judge job: label the mentioned entities of one answer. Rides on the judge provider's answer queue (its concurrency, rate limit, retries). */
export interface JudgeJob {
  judge: true;
  runId: number;
  n: number;
}

export const isJudgeJob = (data: unknown): data is JudgeJob => typeof data === 'object' && data !== null && (data as { judge?: unknown }).judge === true;
/** One job per answer and prompt version: a repeat while it exists is a no-op, and a finished one finds its verdict in the stream. */
export const judgeJobId = (job: Pick<JudgeJob, 'runId' | 'n'>) => `judge-${job.runId}-${job.n}-v${JUDGE_PROMPT_VERSION}`;

/** The cache key of a verdict: answer text, entity names asked (in order), prompt version and labeller (provider and model). */
export function judgeCacheKey(text: string, names: readonly string[], promptVersion: string, labeller: string): string {
  return createHash('sha256').update(JSON.stringify([text, names, promptVersion, labeller])).digest('hex');
}

export type JudgeOutcome = 'labelled' | 'cached' | 'fallback' | 'already' | 'off' | 'nothing';

function metric<T>(name: string, make: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? make();
}

/**
 * The sentiment judge of answers (issue 32, DESIGN §17): where the answer's organisation has the
 * judge on and the deployment has a key for its provider, its mentioned entities are labelled by
 * the judge (or from the cache, keyed by judgeCacheKey: nothing is asked twice), recorded as
 * `answer.judged` naming the labeller, and the answer's analysis decided again with the labels.
 * A failure, refusal or malformed reply keeps the offline labels and is recorded as a fallback
 * (counted), never failing anything; retryable failures (429, 5xx, timeouts) are thrown back to
 * the queue first, whose backoff honours Retry-After, until the last attempt.
 * A judge call spends the organisation's money: it is reserved in the spend ledger first (call
 * `judge:<cache key>`), and when the run's or the month's budget would be exceeded it is not
 * asked (a fallback of kind `budget_exhausted`; the ledger keeps that decision, so a retry does
 * not ask either); its reported tokens settle it.
 */
@Injectable()
export class AnswerJudge {
  private readonly logger = new Logger('SentimentJudge');
  private readonly answers: AnswerRunner;
  private readonly clients = new Map<string, SentimentJudgeClient>();
  private readonly outcomes = metric(
    'sentiment_judge_answers_total',
    () => new Counter({ name: 'sentiment_judge_answers_total', help: 'Answers the sentiment judge handled, by outcome (labelled, cached, fallback, already, off, nothing)', labelNames: ['outcome'] }),
  );

  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @InjectConfig(ANALYSIS_CONFIG) private readonly config: AnalysisConfig,
    private readonly dataSource: DataSource,
    private readonly settings: JudgeSettingsRepository,
    private readonly queues: Queues,
    private readonly ledger: SpendLedger,
  ) {
    this.answers = answerRunner(store);
  }

  /** The judge client for the organisation, or null when it has the judge off or the deployment has no key for its provider. */
  async clientFor(organizationId: number): Promise<SentimentJudgeClient | null> {
    const judge = this.config.judge;
    if (!judge) return null;
    const chosen = await this.settings.get(organizationId);
    if (chosen.provider !== judge.provider) return null;
    const model = chosen.model ?? judge.model;
    let client = this.clients.get(model);
    if (!client) {
      client = createJudgeClient({ provider: judge.provider, apiKey: judge.apiKey, model, baseUrl: judge.baseUrl, timeoutMs: judge.timeoutMs });
      this.clients.set(model, client);
    }
    return client;
  }

  /** The queue judge jobs ride on: the judge provider's answer queue (null: no judge configured). */
  queueDefinition() {
    return this.config.judge ? answerQueue(JUDGE_QUEUE_PROVIDER[this.config.judge.provider], this.config) : null;
  }

  /** Enqueues judge jobs for answers of organisations with the judge on (in bulk; idempotent by job id). Returns the number enqueued. */
  async enqueue(jobs: readonly { runId: number; n: number }[]): Promise<number> {
    const definition = this.queueDefinition();
    if (!definition || jobs.length === 0) return 0;
    const { queue } = this.queues.producer<JudgeJob>(definition);
    for (let k = 0; k < jobs.length; k += 1000) {
      await queue.addBulk(jobs.slice(k, k + 1000).map(({ runId, n }) => ({ name: 'judge', data: { judge: true as const, runId, n }, opts: { jobId: judgeJobId({ runId, n }) } })));
    }
    return jobs.length;
  }

  /** A judge job: one answer judged (or not, saying why). */
  async process(data: JudgeJob, job: Pick<Job, 'attemptsMade' | 'opts'>): Promise<JudgeOutcome> {
    const outcome = await this.judge(data.runId, data.n, job.attemptsMade + 1 < (job.opts.attempts ?? 1));
    this.outcomes.inc({ outcome });
    return outcome;
  }

  /**
   * Judges one answer. `canRetry`: a retryable failure is thrown (the queue tries again later)
   * rather than recorded as a fallback.
   */
  async judge(runId: number, n: number, canRetry: boolean): Promise<JudgeOutcome> {
    const streamId = answerStreamId(runId, n);
    const answer = await this.answers.load(streamId);
    const recorded = answer.state.ending;
    const analysis = answer.state.analysis;
    if (recorded?.type !== 'answer.recorded' || !analysis) return 'nothing';
    const client = await this.clientFor(recorded.data.organizationId);
    if (!client) return 'off';
    const mentioned = analysis.entities.filter((e) => e.mentioned);
    if (!mentioned.length) return 'nothing';
    const names = mentioned.map((e) => e.name);
    const cacheKey = judgeCacheKey(recorded.data.text, names, JUDGE_PROMPT_VERSION, client.labeller);
    const previous = answer.state.judgement;
    if (previous?.cacheKey === cacheKey && previous.outcome === 'labelled') return 'already';

    const d = recorded.data;
    const base = {
      runId: d.runId, n: d.n, organizationId: d.organizationId, brandId: d.brandId, promptId: d.promptId, query: d.query, provider: d.provider,
      labeller: client.labeller, promptVersion: JUDGE_PROMPT_VERSION, cacheKey, asked: names.length,
    };
    const idOf = new Map(mentioned.map((e) => [e.name, e.entityId]));
    const asLabels = (labels: readonly JudgeLabel[]) => labels.flatMap((l) => (idOf.has(l.name) ? [{ entityId: idOf.get(l.name)!, sentiment: l.sentiment, evidence: l.evidence }] : []));
    let judgement: AnswerJudged['data'];
    let outcome: JudgeOutcome;
    const hit = await this.cached(cacheKey);
    if (hit) {
      judgement = { ...base, outcome: 'labelled', fallback: null, labels: asLabels(hit), unknown: 0, cached: true, usage: null, judgedAt: new Date().toISOString() };
      outcome = 'cached';
    } else {
      const billing = judgeBilling(client.labeller)!;
      const call = `judge:${cacheKey}`;
      const fallback = (kind: string, reason: string): AnswerJudged['data'] => {
        this.logger.warn(`answer ${streamId}: judge fell back to the offline labels (${kind})`);
        return { ...base, outcome: 'fallback', fallback: { kind, reason: reason.slice(0, 500) }, labels: [], unknown: 0, cached: false, usage: null, judgedAt: new Date().toISOString() };
      };
      const spend = await this.ledger.reserve({ organizationId: d.organizationId, runId: d.runId, n: d.n, provider: billing.provider, model: billing.model, call });
      if (!spend.ask) {
        judgement = fallback('budget_exhausted', `the ${spend.budget} budget of ${spend.limitUsd} USD would be exceeded (${spend.committedUsd} committed, ${spend.estimateUsd} estimated)`);
        outcome = 'fallback';
      } else {
        try {
          const reply = await client.judge(d.text, names);
          await this.ledger.settleJudge(d.runId, d.n, call, billing, reply.usage);
          await this.store(cacheKey, client.labeller, reply.labels, reply.usage);
          judgement = { ...base, outcome: 'labelled', fallback: null, labels: asLabels(reply.labels), unknown: reply.unknown, cached: false, usage: reply.usage, judgedAt: new Date().toISOString() };
          outcome = 'labelled';
        } catch (error) {
          const failure = error instanceof EngineError ? error : new EngineError('malformed', error instanceof Error ? error.message : String(error));
          if (failure.retryable && canRetry) throw failure;
          await this.ledger.settleJudge(d.runId, d.n, call, billing, null);
          judgement = fallback(failure.kind, failure.message);
          outcome = 'fallback';
        }
      }
    }
    const result = await this.answers.run(streamId, () => ({ kind: 'judge', judgement, analysedAt: new Date().toISOString() }), { organizationId: d.organizationId, actor: 'system:sentiment-judge' }, answer);
    return result.events.length > 0 ? outcome : 'already';
  }

  private async cached(cacheKey: string): Promise<JudgeLabel[] | null> {
    const [row]: { labels: JudgeLabel[] }[] = await this.dataSource.query('SELECT labels FROM sentiment_judge_cache WHERE cache_key = $1', [cacheKey]);
    return row ? row.labels : null;
  }

  private async store(cacheKey: string, labeller: string, labels: readonly JudgeLabel[], usage: unknown): Promise<void> {
    await this.dataSource.query(
      'INSERT INTO sentiment_judge_cache (cache_key, labeller, labels, usage) VALUES ($1, $2, $3::jsonb, $4::jsonb) ON CONFLICT (cache_key) DO NOTHING',
      [cacheKey, labeller, JSON.stringify(labels), usage === null ? null : JSON.stringify(usage)],
    );
  }
}
