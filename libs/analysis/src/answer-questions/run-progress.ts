import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { EVENT_STORE, type EventStore } from '@libs/event-store';
import { REDIS } from '@libs/redis';
import { runStreamId, type AnalysisRunRequested } from '../domain';
import { analysisRunRunner, type AnalysisRunRunner } from '../shared/analysis-streams';

const KEY_TTL_S = 7 * 86_400;
/** How long a job's claim to start a run holds before another job may try (a job killed between its claim and the append). */
const START_CLAIM_TTL_S = 30;

/**
 * Which answers of a run have ended (recorded or failed), in Redis sets, and the run's start and
 * end, decided by the run's decider: the first job of a run starts it, the job that ends its
 * run's last answer completes it; each is recorded once whoever else tries (a retried job, a
 * concurrent one). A job may report the same answer twice (a retried job): the sets make that
 * harmless.
 */
@Injectable()
export class RunProgress {
  private readonly runs: AnalysisRunRunner;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(EVENT_STORE) store: EventStore,
  ) {
    this.runs = analysisRunRunner(store);
  }

  /**
   * The first job of a run marks it started. A claim in Redis keeps the run's other jobs from
   * reading its stream: only the claimant decides. The claim is short until the run is known
   * started, so a claimant that dies before its append (or fails it) leaves the start to a later job.
   */
  async started(runId: number): Promise<void> {
    const key = `run:{${runId}}:started`;
    if ((await this.redis.set(key, 'claimed', 'EX', START_CLAIM_TTL_S, 'NX')) !== 'OK') return;
    try {
      await this.runs.run(runStreamId(runId), () => ({ kind: 'start', startedAt: new Date().toISOString() }), {});
    } catch (error) {
      await this.redis.del(key).catch(() => undefined);
      throw error;
    }
    await this.redis.set(key, '1', 'EX', KEY_TTL_S);
  }

  /** Answer n has ended: failed or recorded, and `notAsked` when a budget kept it from being asked (a failure too). */
  async ended(run: AnalysisRunRequested['data'], n: number, failed: boolean, notAsked = false): Promise<void> {
    const done = `run:{${run.runId}}:done`;
    const failures = `run:{${run.runId}}:failed`;
    const unasked = `run:{${run.runId}}:not-asked`;
    const results = await this.redis
      .multi()
      .sadd(done, String(n))
      .expire(done, KEY_TTL_S)
      .sadd(failures, ...(failed ? [String(n)] : ['-']))
      .expire(failures, KEY_TTL_S)
      .sadd(unasked, ...(notAsked ? [String(n)] : ['-']))
      .expire(unasked, KEY_TTL_S)
      .scard(done)
      .scard(failures)
      .scard(unasked)
      .exec();
    const count = Number(results?.[6]?.[1] ?? 0);
    if (count < run.items.length) return;
    const failedCount = Number(results?.[7]?.[1] ?? 1) - 1; // minus the '-' placeholder
    const notAskedCount = Number(results?.[8]?.[1] ?? 1) - 1;
    await this.runs.run(
      runStreamId(run.runId),
      () => ({ kind: 'complete', answersRecorded: run.items.length - failedCount, answersFailed: failedCount, answersNotAsked: notAskedCount, completedAt: new Date().toISOString() }),
      {},
    );
  }
}
