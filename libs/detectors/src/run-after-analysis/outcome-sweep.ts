import { Injectable, Logger, type OnApplicationBootstrap, type BeforeApplicationShutdown } from '@nestjs/common';
import { InjectConfig } from '@libs/config';
import { DETECTORS_CONFIG, type DetectorsConfig } from '../detectors.config';
import { DetectorPass } from '../shared/detector-pass';

/**
 * Outcomes fall due with time, not with runs: every DETECTOR_OUTCOME_POLL_MS the worker finalises
 * the outcomes whose window after resolution has passed (idempotent: a second worker doing the same
 * finds them final).
 */
@Injectable()
export class OutcomeSweep implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Detectors');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly pass: DetectorPass,
    @InjectConfig(DETECTORS_CONFIG) private readonly config: DetectorsConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.pass
        .finalizeDueOutcomes(`outcome-sweep-${Date.now()}`)
        .catch((error: unknown) => this.logger.error(`outcome sweep: ${(error as Error).message}`))
        .finally(() => (this.running = null));
    }, this.config.outcomePollMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
