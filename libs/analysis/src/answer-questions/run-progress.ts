import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { EVENT_STORE, ExpectedRevision, WrongExpectedRevisionError, type EventStore } from '@libs/event-store';
import { REDIS } from '@libs/redis';
import { asAnalysisRunEvent, runOutcome, runStreamId, type AnalysisRunRequested } from '../domain';

const KEY_TTL_S = 7 * 86_400;

/**
 * Which answers of a run have ended (recorded or failed), in Redis sets, and the run's end: the
 * job that ends its run's last answer appends `analysis_run.completed` (once: at the revision it
 * read). A job may report the same answer twice (a retried job): the sets make that harmless.
 */
@Injectable()
export class RunProgress {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  /** The first job of a run marks it started (only one append wins). */
  async started(runId: number): Promise<void> {
    if ((await this.redis.set(`run:${runId}:started`, '1', 'EX', KEY_TTL_S, 'NX')) !== 'OK') return;
    const events = await this.store.readStream(runStreamId(runId));
    if (events.some((e) => e.type !== 'analysis_run.requested')) return;
    await this.store
      .appendToStream(runStreamId(runId), [{ type: 'analysis_run.started', data: { runId, startedAt: new Date().toISOString() } }], ExpectedRevision.exact(events.length - 1))
      .catch((error: unknown) => {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
      });
  }

  async ended(run: AnalysisRunRequested['data'], n: number, failed: boolean): Promise<void> {
    const done = `run:${run.runId}:done`;
    const failures = `run:${run.runId}:failed`;
    const results = await this.redis
      .multi()
      .sadd(done, String(n))
      .expire(done, KEY_TTL_S)
      .sadd(failures, ...(failed ? [String(n)] : ['-']))
      .expire(failures, KEY_TTL_S)
      .scard(done)
      .scard(failures)
      .exec();
    const count = Number(results?.[4]?.[1] ?? 0);
    if (count < run.items.length) return;
    const failedCount = Number(results?.[5]?.[1] ?? 1) - 1; // minus the '-' placeholder
    await this.complete(run.runId, run.items.length - failedCount, failedCount);
  }

  private async complete(runId: number, recorded: number, failed: number): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const events = await this.store.readStream(runStreamId(runId));
      if (events.some((e) => asAnalysisRunEvent(e).type === 'analysis_run.completed')) return;
      try {
        await this.store.appendToStream(
          runStreamId(runId),
          [{ type: 'analysis_run.completed', data: { runId, status: runOutcome(recorded, failed), answersRecorded: recorded, answersFailed: failed, completedAt: new Date().toISOString() } }],
          ExpectedRevision.exact(events.length - 1),
        );
        return;
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
      }
    }
  }
}
