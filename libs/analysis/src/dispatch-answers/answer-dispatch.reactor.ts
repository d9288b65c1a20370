import { Injectable } from '@nestjs/common';
import { InjectConfig } from '@libs/config';
import type { RecordedEvent } from '@libs/event-store';
import type { Reactor } from '@libs/projection-engine';
import { Queues } from '@libs/queue';
import { asAnalysisRunEvent, PROVIDERS, type Provider } from '../domain';
import { ANALYSIS_CONFIG, type AnalysisConfig } from '../analysis.config';
import { answerJobId, answerQueue, type AnswerJob } from '../shared/answer-queues';

/**
 * When a run is requested, enqueue one job per (query, provider) on that provider's queue. At
 * least once (a reactor): the job id `answer-<runId>-<n>` makes a repeat a no-op while the job
 * exists, and a job that already ran finds its answer in its stream and asks nothing.
 */
@Injectable()
export class AnswerDispatchReactor implements Reactor {
  readonly name = 'answer-dispatch';
  readonly handles = ['analysis_run.requested'];

  constructor(
    private readonly queues: Queues,
    @InjectConfig(ANALYSIS_CONFIG) private readonly config: AnalysisConfig,
  ) {}

  async react(events: readonly RecordedEvent[]): Promise<void> {
    const byProvider = new Map<Provider, AnswerJob[]>();
    for (const recorded of events) {
      const event = asAnalysisRunEvent(recorded);
      // Seeded runs are written whole (answers and all) by the history seeder: nothing to ask.
      if (event.type !== 'analysis_run.requested' || event.data.trigger === 'seed') continue;
      for (const item of event.data.items) {
        const jobs = byProvider.get(item.provider) ?? [];
        jobs.push({ runId: event.data.runId, n: item.n });
        byProvider.set(item.provider, jobs);
      }
    }
    for (const provider of PROVIDERS) {
      const jobs = byProvider.get(provider);
      if (!jobs?.length) continue;
      const { queue } = this.queues.producer<AnswerJob>(answerQueue(provider, this.config));
      for (let k = 0; k < jobs.length; k += 1000) {
        await queue.addBulk(jobs.slice(k, k + 1000).map((data) => ({ name: 'answer', data, opts: { jobId: answerJobId(data) } })));
      }
    }
  }
}
