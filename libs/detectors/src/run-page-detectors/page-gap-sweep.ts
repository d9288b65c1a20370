import { Injectable, Logger, type OnApplicationBootstrap, type BeforeApplicationShutdown } from '@nestjs/common';
import { InjectConfig } from '@libs/config';
import { DETECTORS_CONFIG, type DetectorsConfig } from '../detectors.config';
import { PageGapPass } from './page-gap-pass';

/**
 * The page detectors run when page audits complete: the worker looks for completed audits not yet
 * judged every DETECTOR_PAGE_POLL_MS (a minute by default). Page audits are operational records,
 * not events, so this sweep (with its record of judged audits) stands where a reactor would.
 */
@Injectable()
export class PageGapSweep implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Detectors');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly pass: PageGapPass,
    @InjectConfig(DETECTORS_CONFIG) private readonly config: DetectorsConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.pass
        .run(`page-gaps-${Date.now()}`)
        .catch((error: unknown) => this.logger.error(`page detectors: ${(error as Error).message}`))
        .finally(() => (this.running = null));
    }, this.config.pagePollMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
