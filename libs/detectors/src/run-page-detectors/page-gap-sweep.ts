import { Injectable } from '@nestjs/common';
import { InjectConfig } from '@libs/config';
import { PeriodicService } from '@libs/queue';
import { DETECTORS_CONFIG, type DetectorsConfig } from '../detectors.config';
import { PageGapPass } from './page-gap-pass';

/**
 * The page detectors run when page audits complete: the worker looks for completed audits not yet
 * judged every DETECTOR_PAGE_POLL_MS (a minute by default). Page audits are operational records,
 * not events, so this sweep (with its record of judged audits) stands where a reactor would.
 */
@Injectable()
export class PageGapSweep extends PeriodicService {
  constructor(
    private readonly pages: PageGapPass,
    @InjectConfig(DETECTORS_CONFIG) config: DetectorsConfig,
  ) {
    super({ name: 'page detectors', everyMs: config.pagePollMs, failureLevel: 'error' });
  }

  protected pass(): Promise<unknown> {
    return this.pages.run(`page-gaps-${Date.now()}`);
  }
}
