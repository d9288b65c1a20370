import { Injectable, type OnApplicationBootstrap, type BeforeApplicationShutdown } from '@nestjs/common';
import { InjectConfig } from '@libs/config';
import { PeriodicTask } from '@libs/queue';
import { DETECTORS_CONFIG, type DetectorsConfig } from '../detectors.config';
import { DetectorPass } from '../shared/detector-pass';

/**
 * Outcomes fall due with time, not with runs: every DETECTOR_OUTCOME_POLL_MS the worker finalises
 * the outcomes whose window after resolution has passed (idempotent: a second worker doing the same
 * finds them final).
 */
@Injectable()
export class OutcomeSweep implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly task: PeriodicTask;

  constructor(pass: DetectorPass, @InjectConfig(DETECTORS_CONFIG) config: DetectorsConfig) {
    this.task = new PeriodicTask({ name: 'outcome sweep', everyMs: config.outcomePollMs, failureLevel: 'error', run: () => pass.finalizeDueOutcomes(`outcome-sweep-${Date.now()}`) });
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }
}
