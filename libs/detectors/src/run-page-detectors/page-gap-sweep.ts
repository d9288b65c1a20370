import { Injectable, type OnApplicationBootstrap, type BeforeApplicationShutdown } from '@nestjs/common';
import { InjectConfig } from '@libs/config';
import { PeriodicTask } from '@libs/queue';
import { DETECTORS_CONFIG, type DetectorsConfig } from '../detectors.config';
import { PageGapPass } from './page-gap-pass';

/**
 * The page detectors run when page audits complete: the worker looks for completed audits not yet
 * judged every DETECTOR_PAGE_POLL_MS (a minute by default). Page audits are operational records,
 * not events, so this sweep (with its record of judged audits) stands where a reactor would.
 */
@Injectable()
export class PageGapSweep implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly task: PeriodicTask;

  constructor(pass: PageGapPass, @InjectConfig(DETECTORS_CONFIG) config: DetectorsConfig) {
    this.task = new PeriodicTask({ name: 'page detectors', everyMs: config.pagePollMs, failureLevel: 'error', run: () => pass.run(`page-gaps-${Date.now()}`) });
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }
}
