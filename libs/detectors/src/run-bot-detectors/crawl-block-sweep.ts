import { Injectable } from '@nestjs/common';
import { InjectConfig } from '@libs/config';
import { PeriodicService } from '@libs/queue';
import { DETECTORS_CONFIG, type DetectorsConfig } from '../detectors.config';
import { CrawlBlockPass } from './crawl-block-pass';

/**
 * The bot detectors run on the bot data's daily rollups, not after analysis runs: the worker runs
 * them every DETECTOR_BOT_POLL_MS (daily by default), the first time a minute after it starts
 * (idempotent: a second worker doing the same finds the problems open).
 */
@Injectable()
export class CrawlBlockSweep extends PeriodicService {
  constructor(
    private readonly crawlBlock: CrawlBlockPass,
    @InjectConfig(DETECTORS_CONFIG) config: DetectorsConfig,
  ) {
    super({ name: 'crawl_block', everyMs: config.botPollMs, firstAfterMs: Math.min(60_000, config.botPollMs), failureLevel: 'error' });
  }

  protected pass(): Promise<unknown> {
    return this.crawlBlock.run(`crawl-block-${Date.now()}`);
  }
}
