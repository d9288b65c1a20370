import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { InjectConfig } from '@libs/config';
import { EVENT_STORE, type EventStore, type LoadedState } from '@libs/event-store';
import { Queues } from '@libs/queue';
import { answerStreamId, asAnalysisRunEvent, marketFields, marketOfKey, PROVIDERS, RAW_RESPONSE_LIMIT, runStreamId, type AnalysisRunRequested, type AnswerCommand, type AnswerRecorded, type AnswerState } from '../domain';
import { ANALYSIS_CONFIG, type AnalysisConfig } from '../analysis.config';
import { analyseAnswer } from '../shared/analyse-answer';
import { answerRunner, type AnswerRunner } from '../shared/analysis-streams';
import { answerQueue, type AnswerJob } from '../shared/answer-queues';
import { EngineError } from '../shared/engines/answer-engine';
import { Engines } from '../shared/engines/engine-registry';
import { SpendLedger, type SpendDecision } from '../shared/spend-ledger';
import { TrackedBrands } from '../shared/tracked-brands';
import { AnswerJudge, isJudgeJob, type JudgeJob } from '../shared/judge/answer-judge';
import { RunProgress } from './run-progress';

const RUN_CACHE_LIMIT = 1000;
/** An answer longer than this is not an answer to a question (a provider fault or a hostile body): it fails. */
export const MAX_ANSWER_CHARS = 200_000;
/** Sources kept of one answer, in the engine's order (the rest are dropped and counted). */
export const MAX_CITATIONS = 500;

/** The provider's response as JSON text, or null when it does not fit RAW_RESPONSE_LIMIT. */
function boundedRaw(raw: unknown): string | null {
  try {
    const text = JSON.stringify(raw);
    return text !== undefined && text.length <= RAW_RESPONSE_LIMIT ? text : null;
  } catch {
    return null;
  }
}

/** The failure kind of a question a budget kept from being asked. */
export const BUDGET_EXHAUSTED = 'budget_exhausted';

/** The failure recording that question n was not asked: a budget would have been exceeded (attempts 0: nothing was sent). */
function notAsked(run: AnalysisRunRequested['data'], n: number, d: Extract<SpendDecision, { ask: false }>): Extract<AnswerCommand, { kind: 'fail' }> {
  const item = run.items[n];
  const now = new Date().toISOString();
  const budget = d.budget === 'run' ? "the run's budget" : "the organisation's monthly budget";
  return {
    kind: 'fail',
    failure: {
      ...{ runId: run.runId, n, organizationId: run.organizationId, brandId: run.brandId, promptId: item.promptId, query: item.query, provider: item.provider },
      reason: `not asked: ${budget} of $${d.limitUsd.toFixed(2)} would be exceeded ($${d.committedUsd.toFixed(6)} committed, this question ~$${d.estimateUsd.toFixed(6)})`,
      kind: BUDGET_EXHAUSTED,
      attempts: 0,
      askedAt: now,
      failedAt: now,
    },
  };
}

/** Any failure as an EngineError (an adapter's bug is not retried: it fails the answer with its message). */
function asEngineError(error: unknown): EngineError {
  if (error instanceof EngineError) return error;
  return new EngineError('malformed', error instanceof Error ? error.message : String(error));
}

/**
 * Answers one question of a run (one job per query and provider, DESIGN §13.1): reads the answer's
 * stream first and asks only when it holds no answer, then has the answer's decider record
 * `answer.recorded` (appended with "no stream", the revision it read), so a worker that dies
 * mid-job and its retry record one answer between them: the later decides nothing. Retryable
 * failures (429, 5xx, timeouts) are thrown back to BullMQ, whose backoff honours Retry-After; the
 * last attempt, or a failure that is not retryable, records `answer.failed`. A recorded answer is
 * then analysed (`answer.analysed`, decided on the state the record left: no second read) and the
 * run's progress counted; the last answer completes the run.
 */
@Injectable()
export class AnswerQuestionProcessor implements OnApplicationBootstrap {
  private readonly logger = new Logger('AnswerQuestion');
  private readonly runs = new Map<number, Promise<AnalysisRunRequested['data']>>();
  private readonly answers: AnswerRunner;

  constructor(
    private readonly queues: Queues,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @InjectConfig(ANALYSIS_CONFIG) private readonly config: AnalysisConfig,
    private readonly engines: Engines,
    private readonly brands: TrackedBrands,
    private readonly progress: RunProgress,
    private readonly ledger: SpendLedger,
    private readonly judge: AnswerJudge,
  ) {
    this.answers = answerRunner(store);
  }

  onApplicationBootstrap(): void {
    // A provider's queue also carries the sentiment judge's jobs when the judge is that provider's (one concurrency and rate limit for both).
    for (const provider of PROVIDERS) {
      this.queues.process<AnswerJob | JudgeJob, string>(answerQueue(provider, this.config), (data, job) => (isJudgeJob(data) ? this.judge.process(data, job) : this.process(data, job)));
    }
  }

  async process(data: AnswerJob, job: Pick<Job, 'attemptsMade' | 'opts'>): Promise<string> {
    const run = await this.run(data.runId);
    const item = run.items[data.n];
    if (!item) throw new Error(`run ${data.runId} has no item ${data.n}`);
    const streamId = answerStreamId(run.runId, item.n);
    let answer = await this.answers.load(streamId);
    // Live questions spend the organisation's money: each is checked against its budgets and
    // counted in the spend ledger (a retried job finds its question's decision there).
    const live = this.engines.for(item.provider).source === 'live';
    let analysed = false;
    if (!answer.state.ending) {
      await this.progress.started(run.runId);
      const decision: SpendDecision = live
        ? await this.ledger.reserve({ organizationId: run.organizationId, runId: run.runId, n: item.n, provider: item.provider, model: this.config.providers[item.provider].model })
        : { ask: true };
      const ending = decision.ask ? await this.ask(run, data.n, job) : notAsked(run, data.n, decision);
      // A recorded answer is appended with its first analysis (one append); undefined: not analysed
      // here (the analysis could not be read: this answer is recorded alone, and analysed below).
      const analysis = ending.kind === 'record' ? await this.analysisOf(streamId, ending.answer).catch(() => undefined) : undefined;
      // Decided on the stream as read: when another attempt recorded first, the append fails and the
      // runner reads the stream again, where the other ending stands (this one decides nothing, and
      // that ending is analysed below).
      const decided = await this.answers.runAll(streamId, (state) => (state.ending || !analysis ? [ending] : [ending, analysis]), { organizationId: run.organizationId }, answer);
      answer = decided.loaded;
      // This answer was recorded and its analysis tried (none: its brand is gone, or the engine failed on it, logged once).
      analysed = analysis !== undefined && decided.events.some((e) => e.type === 'answer.recorded');
    }
    const ending = answer.state.ending;
    if (!ending) throw new Error(`answer ${streamId} has no ending after asking`);
    if (live) await this.ledger.settle(run.runId, item.n, ending);
    if (ending.type === 'answer.recorded' && !answer.state.analysis && !analysed) await this.analyse(streamId, ending, answer);
    // The judge labels it afterwards, on its own provider's queue, where the organisation has it on.
    if (ending.type === 'answer.recorded' && (await this.judge.clientFor(run.organizationId))) await this.judge.enqueue([{ runId: run.runId, n: item.n }]);
    await this.progress.ended(run, item.n, ending.type === 'answer.failed', ending.type === 'answer.failed' && ending.data.kind === BUDGET_EXHAUSTED);
    return ending.type;
  }

  /** Asks the question: the command recording its answer, or its failure (a retryable failure short of the last attempt throws). */
  private async ask(run: AnalysisRunRequested['data'], n: number, job: Pick<Job, 'attemptsMade' | 'opts'>): Promise<Extract<AnswerCommand, { kind: 'record' | 'fail' }>> {
    const item = run.items[n];
    const key = { runId: run.runId, n, organizationId: run.organizationId, brandId: run.brandId, promptId: item.promptId, query: item.query, provider: item.provider, ...marketFields(item) };
    const tracked = await this.brands.namesOf(run.organizationId, run.brandId);
    const entities = tracked
      ? [
          { kind: 'brand' as const, name: tracked.brand.name, domains: [tracked.brand.domain, ...(tracked.brand.extraDomains ?? [])] },
          ...tracked.competitors.map((c) => ({ kind: 'competitor' as const, name: c.name, domains: [c.domain, ...(c.extraDomains ?? [])] })),
        ]
      : [];
    const askedAt = new Date();
    const started = performance.now();
    try {
      const answer = await this.engines.for(item.provider).ask({ query: item.query, market: marketOfKey(item), askedAt, entities, signal: AbortSignal.timeout(this.config.timeoutMs) });
      if (answer.text.length > MAX_ANSWER_CHARS) throw new EngineError('malformed', `the answer has ${answer.text.length} characters, more than ${MAX_ANSWER_CHARS}`);
      return {
        kind: 'record',
        answer: {
          ...key,
          model: answer.model,
          source: answer.source,
          text: answer.text,
          providerCitations: answer.citations.slice(0, MAX_CITATIONS).map((c) => ({ url: c.url, title: c.title === null ? null : c.title.slice(0, 500) })),
          citationsDropped: Math.max(0, answer.citations.length - MAX_CITATIONS),
          usage: answer.usage ? { inputTokens: answer.usage.inputTokens, cachedInputTokens: answer.usage.cachedInputTokens, outputTokens: answer.usage.outputTokens } : null,
          latencyMs: Math.round(performance.now() - started),
          askedAt: askedAt.toISOString(),
          raw: boundedRaw(answer.raw),
        },
      };
    } catch (error) {
      const failure = asEngineError(error);
      const attempts = job.opts.attempts ?? 1;
      if (failure.retryable && job.attemptsMade + 1 < attempts) throw failure;
      const failed = { kind: 'fail' as const, failure: { ...key, reason: failure.message.slice(0, 500), kind: failure.kind, attempts: job.attemptsMade + 1, askedAt: askedAt.toISOString(), failedAt: new Date().toISOString() } };
      this.logger.warn(`answer ${run.runId}-${n} (${item.provider}) failed: ${failure.kind}`);
      return failed;
    }
  }

  /** Analyses the recorded answer once, decided on the state the job holds (the stream is read again only if it moved). */
  private async analyse(streamId: string, recorded: AnswerRecorded, answer: LoadedState<AnswerState>): Promise<void> {
    const analysis = await this.analysisOf(streamId, recorded.data);
    if (!analysis) return;
    // A concurrent analysis (another attempt of this job, a re-analysis) that appended first stands: this one then decides nothing.
    await this.answers.run(streamId, () => analysis, { organizationId: recorded.data.organizationId }, answer);
  }

  /**
   * The command analysing a recorded answer, or null when it is not analysed: its brand was deleted
   * (nothing to analyse against), or the engine cannot analyse it (a bug on hostile input: it stays
   * recorded, unanalysed, and its run still ends; `answers reanalyze` analyses it once the engine is
   * fixed). Store errors are thrown (the job retries).
   */
  private async analysisOf(streamId: string, d: AnswerRecorded['data']): Promise<Extract<AnswerCommand, { kind: 'analyse' }> | null> {
    const tracked = await this.brands.of(d.organizationId, d.brandId);
    if (!tracked) return null;
    try {
      return { kind: 'analyse', analysis: analyseAnswer(d.text, d.providerCitations, tracked), analysedAt: new Date().toISOString() };
    } catch (error) {
      this.logger.error(`answer ${streamId} recorded but not analysed: ${(error as Error).message}`);
      return null;
    }
  }

  /** The run's request (its first event), cached: it never changes. Read once for the jobs of a run that start together (a failed read is not kept). */
  private run(runId: number): Promise<AnalysisRunRequested['data']> {
    const cached = this.runs.get(runId);
    if (cached) return cached;
    const read = this.readRun(runId);
    if (this.runs.size >= RUN_CACHE_LIMIT) this.runs.clear();
    this.runs.set(runId, read);
    read.catch(() => {
      if (this.runs.get(runId) === read) this.runs.delete(runId);
    });
    return read;
  }

  private async readRun(runId: number): Promise<AnalysisRunRequested['data']> {
    const [first] = await this.store.readStream(runStreamId(runId), { maxCount: 1 });
    if (!first) throw new Error(`run ${runId} does not exist`);
    const event = asAnalysisRunEvent(first);
    if (event.type !== 'analysis_run.requested') throw new Error(`run ${runId} does not start with its request`);
    return event.data;
  }
}
